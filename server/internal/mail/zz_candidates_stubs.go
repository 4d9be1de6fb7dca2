package mail

// TEMPORARY stub (branch p48-candidates only, never landed): the real one comes with the port of the mail libs.

import "github.com/pocketbase/pocketbase/core"

func SendInterviewMail(app core.App, candidate *core.Record, again, resent bool) {
	app.Logger().Warn("STUB SendInterviewMail", "candidate", candidate.Id, "again", again, "resent", resent)
}
