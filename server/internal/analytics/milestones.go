package analytics

import (
	"screenroom/server/internal/platform"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
)

// The candidate's milestones (migration 1733201000_candidate_milestones.js): hidden date fields on the candidate,
// each on the server's clock (platform.Now), each written once and never cleared by a save.
const (
	invitedAtField        = "invitedAt"
	linkOpenedAtField     = "linkOpenedAt"
	questionOpenedAtField = "questionOpenedAt"
)

// MilestoneFields are the stamps this package keeps on a candidate, in the funnel's order.
var MilestoneFields = []string{invitedAtField, linkOpenedAtField, questionOpenedAtField}

func registerMilestones(app core.App) {
	// The invite, on the server's clock. A superuser's import may bring its own.
	app.OnRecordCreate("candidates").BindFunc(func(e *core.RecordEvent) error {
		if e.Record.GetString(invitedAtField) == "" {
			e.Record.Set(invitedAtField, platform.NowText(e.App))
		}
		return e.Next()
	})

	// A save writes the whole row: a manager's edit carries the stamps as they were when the record was read, so one
	// recorded meanwhile (the link opened while the manager typed) would be undone. A stamp this save does not
	// change is taken again from the row just before it is written.
	app.OnRecordUpdate("candidates").BindFunc(func(e *core.RecordEvent) error {
		original := e.Record.Original()
		var kept []string
		for _, field := range MilestoneFields {
			if e.Record.GetString(field) == original.GetString(field) {
				kept = append(kept, field)
			}
		}
		if len(kept) > 0 {
			var row struct {
				InvitedAt        string `db:"invitedAt"`
				LinkOpenedAt     string `db:"linkOpenedAt"`
				QuestionOpenedAt string `db:"questionOpenedAt"`
			}
			err := e.App.DB().
				NewQuery("SELECT invitedAt, linkOpenedAt, questionOpenedAt FROM candidates WHERE id = {:id}").
				Bind(dbx.Params{"id": e.Record.Id}).
				One(&row)
			// deleted meanwhile: the save fails on its own
			if err == nil {
				current := map[string]string{invitedAtField: row.InvitedAt, linkOpenedAtField: row.LinkOpenedAt, questionOpenedAtField: row.QuestionOpenedAt}
				for _, field := range kept {
					e.Record.Set(field, current[field])
				}
			}
		}
		return e.Next()
	})

	// Started: the first question the candidate opened. The interview's open route stamps the question's progress
	// row (openedAt, first opening kept) in a transaction; the candidate's stamp is written in the same one.
	stampStarted := func(e *core.RecordEvent) error {
		// a take counted on a question opened before changes nothing here
		openedBefore := !e.Record.IsNew() && e.Record.Original().GetString("openedAt") != ""
		if err := e.Next(); err != nil {
			return err
		}
		openedAt := e.Record.GetString("openedAt")
		if openedAt == "" || openedBefore {
			return nil
		}
		return markStarted(e.App, e.Record.GetString("candidate"), openedAt)
	}
	app.OnRecordCreate("question_progress").BindFunc(stampStarted)
	app.OnRecordUpdate("question_progress").BindFunc(stampStarted)
}

// markStarted stamps the candidate's questionOpenedAt with at unless it has one. One column, straight to the row:
// the candidate's save hooks (progress, webhooks, realtime) have nothing to do with it.
func markStarted(app core.App, candidateID, at string) error {
	_, err := app.DB().
		NewQuery("UPDATE candidates SET questionOpenedAt = {:at} WHERE id = {:id} AND questionOpenedAt = ''").
		Bind(dbx.Params{"at": at, "id": candidateID}).
		Execute()
	return err
}
