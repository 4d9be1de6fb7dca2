package pipeline

import (
	"slices"

	"github.com/pocketbase/pocketbase/core"
)

// registerRecomputeHooks keeps the candidates' progress and rating however their answers, their job's questions and
// their ratings are written: the answers route, a superuser's records or batch API, a cascade. Each runs after the
// write, with the write's app (inside its transaction when there is one), so the candidate's row changes with it or
// not at all: one small UPDATE of one candidate (of one job's candidates for its questions), nothing scanned.
func registerRecomputeHooks(app core.App) {
	app.OnRecordCreate("answers").BindFunc(func(e *core.RecordEvent) error {
		if err := e.Next(); err != nil {
			return err
		}
		return RecomputeCandidateProgress(e.App, e.Record.GetString("candidate"))
	})
	app.OnRecordDelete("answers").BindFunc(func(e *core.RecordEvent) error {
		if err := e.Next(); err != nil {
			return err
		}
		return RecomputeCandidateProgress(e.App, e.Record.GetString("candidate"))
	})
	// Answers are not updated through the API (updateRule null); a superuser moving one moves its count too.
	app.OnRecordUpdate("answers").BindFunc(func(e *core.RecordEvent) error {
		before := e.Record.Original().GetString("candidate")
		beforeQuestion := e.Record.Original().GetString("question")
		if err := e.Next(); err != nil {
			return err
		}
		after := e.Record.GetString("candidate")
		if before == after && beforeQuestion == e.Record.GetString("question") {
			return nil
		}
		if err := RecomputeCandidateProgress(e.App, after); err != nil {
			return err
		}
		if before != after {
			return RecomputeCandidateProgress(e.App, before)
		}
		return nil
	})

	// A job's questions changed (edited, or a deleted question taken out of it): its candidates' progress, one UPDATE.
	app.OnRecordUpdate("jobs").BindFunc(func(e *core.RecordEvent) error {
		changed := !slices.Equal(e.Record.Original().GetStringSlice("questions"), e.Record.GetStringSlice("questions"))
		if err := e.Next(); err != nil {
			return err
		}
		if changed {
			return RecomputeJobProgress(e.App, e.Record.Id)
		}
		return nil
	})

	// After every rating written or removed (a cascade included), its candidate's averageRating and ratingsCount.
	app.OnRecordCreate("ratings").BindFunc(func(e *core.RecordEvent) error {
		if err := e.Next(); err != nil {
			return err
		}
		return RecomputeCandidateRating(e.App, e.Record.GetString("candidate"))
	})
	app.OnRecordUpdate("ratings").BindFunc(func(e *core.RecordEvent) error {
		before := e.Record.Original().GetString("candidate")
		if err := e.Next(); err != nil {
			return err
		}
		if err := RecomputeCandidateRating(e.App, e.Record.GetString("candidate")); err != nil {
			return err
		}
		// only a superuser moves a rating (the update rule keeps answer, candidate and manager)
		if before != e.Record.GetString("candidate") {
			return RecomputeCandidateRating(e.App, before)
		}
		return nil
	})
	app.OnRecordDelete("ratings").BindFunc(func(e *core.RecordEvent) error {
		if err := e.Next(); err != nil {
			return err
		}
		return RecomputeCandidateRating(e.App, e.Record.GetString("candidate"))
	})
}
