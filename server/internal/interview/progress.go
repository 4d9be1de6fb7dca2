package interview

import (
	"screenroom/server/internal/platform"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/router"
)

// Takes counted by the server (migration 1732800000, decisions.md "Takes and time"): a take counts once the server
// has its first part, or its whole file when none of it was staged. A recovered take is the take it was: submitting
// it counts nothing new. Decided inside the transaction that starts the take, so parallel first parts cannot both
// take the last one. The same rows hold a question's first opening (openedAt).

// ProgressCollection holds a row per candidate and question.
const ProgressCollection = "question_progress"

// NoTakesLeft is the refusal of a take beyond the question's takes.
const NoTakesLeft = "You have used all your takes for this question."

// FindProgress is the candidate's progress row for the question, or nil.
func FindProgress(app core.App, candidateID, questionID string) *core.Record {
	return platform.FindFirstOrNil(app, ProgressCollection, "candidate = {:c} && question = {:q}", dbx.Params{"c": candidateID, "q": questionID})
}

// MaxTakesOf is the takes the candidate has for a question (ids): MaxTakes of the question's video kind, 1 for
// anything else.
func MaxTakesOf(app core.App, questionID, candidateID string) int {
	kind := platform.FindFirstOrNil(app, "video_questions", "question = {:q}", dbx.Params{"q": questionID})
	candidate := platform.FindByIdOrNil(app, "candidates", candidateID)
	if candidate == nil {
		if kind == nil {
			return 1
		}
		return max(1, kind.GetInt("takes"))
	}
	return MaxTakes(kind, candidate)
}

// TakesUsed is how many takes of the question the candidate has started, as the server counted them.
func TakesUsed(app core.App, candidateID, questionID string) int {
	if row := FindProgress(app, candidateID, questionID); row != nil {
		return row.GetInt("takesStarted")
	}
	return 0
}

// newProgress is an unsaved progress row of the candidate and question.
func newProgress(txApp core.App, candidateID, questionID string) (*core.Record, error) {
	collection, err := txApp.FindCollectionByNameOrId(ProgressCollection)
	if err != nil {
		return nil, err
	}
	row := core.NewRecord(collection)
	row.Set("candidate", candidateID)
	row.Set("question", questionID)
	row.Set("takesStarted", 0)
	return row, nil
}

// CountTake, inside a transaction (txApp): counts a new take of the question for the candidate, or refuses it (403)
// when every take the question allows was used; the caller's transaction is then rolled back by the error.
func CountTake(txApp core.App, candidateID, questionID string) error {
	row := FindProgress(txApp, candidateID, questionID)
	if row == nil {
		var err error
		if row, err = newProgress(txApp, candidateID, questionID); err != nil {
			return err
		}
	}
	used := row.GetInt("takesStarted")
	if used >= MaxTakesOf(txApp, questionID, candidateID) {
		return router.NewForbiddenError(NoTakesLeft, nil)
	}
	row.Set("takesStarted", used+1)
	return txApp.Save(row)
}

// MarkOpened records the candidate's first opening of the question (question_progress.openedAt) unless it has one:
// the first stays. Returns the openedAt text.
func MarkOpened(app core.App, candidateID, questionID string) (string, error) {
	openedAt := ""
	err := app.RunInTransaction(func(txApp core.App) error {
		row := FindProgress(txApp, candidateID, questionID)
		if row != nil && row.GetString("openedAt") != "" {
			openedAt = row.GetString("openedAt")
			return nil
		}
		if row == nil {
			var err error
			if row, err = newProgress(txApp, candidateID, questionID); err != nil {
				return err
			}
		}
		row.Set("openedAt", platform.NowText(txApp))
		if err := txApp.Save(row); err != nil {
			return err
		}
		openedAt = row.GetString("openedAt")
		return nil
	})
	return openedAt, err
}
