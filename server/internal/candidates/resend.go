package candidates

import (
	"net/http"

	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/router"

	"screenroom/server/internal/jobs"
	"screenroom/server/internal/mail"
	"screenroom/server/internal/platform"
)

// POST /api/screenroom/candidates/{id}/resend-invite: a manager of the job's company mails the candidate's interview
// link again. 200 {sentAt}. Anyone else, and an unknown id, gets the same 404 before anything else is decided (the
// route says nothing about other companies' candidates). The mail is taken from the address's e-mail budget, shared
// with the invite itself, so resending cannot make the product mail one address over and over: 429 when spent; and
// each manager resends at most RATE_LIMIT_INVITES in its window (429 past it). Nothing is resent that the candidate
// could not use: a completed interview, a withdrawn invitation, a closed job or a passed deadline is refused (400)
// with what to do instead.
func registerResend(app core.App) {
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		se.Router.POST("/api/screenroom/candidates/{id}/resend-invite", resendInvite)
		return se.Next()
	})
}

func resendInvite(e *core.RequestEvent) error {
	user := platform.RequestUser(e)
	if user == nil {
		return router.NewNotFoundError("The requested resource wasn't found.", nil)
	}
	// the list rule, not the view rule: the view rule also lets the candidate itself read its record
	_, candidate, _, ok := platform.ManagedCandidate(e, false)
	if !ok {
		return router.NewNotFoundError("The requested resource wasn't found.", nil)
	}

	if err := ResendRefusal(e.App, candidate); err != nil {
		return err
	}
	if err := platform.RequireResendBudget(e.App, user.Id); err != nil {
		return err
	}
	if err := SendInvitationAgain(e.App, candidate); err != nil {
		return err
	}
	return e.JSON(http.StatusOK, map[string]string{"sentAt": platform.NowText(e.App)})
}

// ResendRefusal is why candidate's invitation cannot be sent again (a 400 on its field, saying what to do
// instead), or nil: nothing is resent that the candidate could not use. The resend route asks it, and a bulk resend
// asks it of each candidate.
func ResendRefusal(app core.App, candidate *core.Record) error {
	if candidate.GetString("status") == "completed" {
		return platform.FieldError("candidate", "This candidate has already sent their answers: there is no invitation to resend.", "validation_completed")
	}
	if candidate.GetBool("withdrawn") {
		return platform.FieldError("candidate", "This invitation was withdrawn. Restore it before sending it again.", "validation_withdrawn")
	}
	// a closed job's link shows the closed page; sending it again would only confuse the candidate
	if err := jobs.RequireOpenForInvites(app, candidate.GetString("job")); err != nil {
		return err
	}
	if deadline, ok := platform.ParseDBTime(candidate.GetString("deadline")); ok && deadline.UnixMilli() <= platform.NowMs(app) {
		return platform.FieldError("candidate", "The deadline has passed. Extend it before sending the invitation again.", "validation_deadline_passed")
	}
	return nil
}

// SendInvitationAgain queues candidate's interview e-mail again (the same link), taken from the address's e-mail
// budget, shared with the invite itself: a 429 when spent, and nothing queued. The manager's resend budget is the
// caller's: one per resend route request, one per bulk resend.
func SendInvitationAgain(app core.App, candidate *core.Record) error {
	if err := platform.RequireMailBudget(app, candidate.GetString("email"), "candidate"); err != nil {
		return err
	}
	mail.SendInterviewMail(app, candidate, false, true)
	return nil
}
