package candidates

import (
	"time"

	"github.com/pocketbase/pocketbase/core"

	"screenroom/server/internal/interview"
	"screenroom/server/internal/jobs"
	"screenroom/server/internal/mail"
	"screenroom/server/internal/platform"
)

// A single invite (business rule 6): one candidate per job and e-mail, compared on the stored, lower-cased address;
// the interview e-mail goes out once the candidate is stored. That the inviter manages the job's company is the
// create rule. A deadline a manager sets is in the future; a new invite without one gets its job's response time;
// withdrawing stamps when.

func registerInviteRules(app core.App) {
	// a changed e-mail too: the duplicate check below compares stored addresses
	app.OnRecordCreate("candidates").BindFunc(func(e *core.RecordEvent) error {
		e.Record.Set("email", platform.NormalizeEmail(e.Record.GetString("email")))
		setDefaultDeadline(e.App, e.Record)
		// a withdrawn invite (a superuser's import) is stamped
		if e.Record.GetBool("withdrawn") && e.Record.GetString("withdrawnAt") == "" {
			e.Record.Set("withdrawnAt", platform.NowText(e.App))
		}
		return e.Next()
	})

	app.OnRecordUpdate("candidates").BindFunc(func(e *core.RecordEvent) error {
		e.Record.Set("email", platform.NormalizeEmail(e.Record.GetString("email")))
		stampWithdrawalAndReminders(e.App, e.Record)
		return e.Next()
	})

	app.OnRecordValidate("candidates").BindFunc(func(e *core.RecordEvent) error {
		values := map[string]any{"job": e.Record.GetString("job"), "email": e.Record.GetString("email")}
		if err := platform.RefuseDuplicate(e.App, e.Record, "candidates", values, "email", "This candidate has already been invited"); err != nil {
			return err
		}
		return e.Next()
	})

	// The key (the interview link's credential) is the server's to make: a client can neither choose nor change it.
	app.OnRecordCreateRequest("candidates").BindFunc(func(e *core.RecordRequestEvent) error {
		if !e.HasSuperuserAuth() {
			// nobody is invited to a closed job
			if err := jobs.RequireOpenForInvites(e.App, e.Record.GetString("job")); err != nil {
				return err
			}
			e.Record.Set("secret", "")
			e.Record.Set("linkReplaced", false)
			// the interview e-mail goes to an address of the manager's choosing: within that address's budget
			if err := platform.RequireMailBudget(e.App, platform.NormalizeEmail(e.Record.GetString("email")), "email"); err != nil {
				return err
			}
			// one action (a CSV import is one too)
			if e.Auth != nil {
				if err := platform.RequireInviteAction(e.App, e.Auth.Id); err != nil {
					return err
				}
			}
			if err := interview.RefusePastDeadline(e.App, e.Record); err != nil {
				return err
			}
		}
		return e.Next()
	})

	app.OnRecordUpdateRequest("candidates").BindFunc(func(e *core.RecordRequestEvent) error {
		if !e.HasSuperuserAuth() {
			original := e.Record.Original()
			e.Record.Set("secret", original.GetString("secret"))
			// A replaced link mails the new one to the candidate's address: once a manager changed that address, it
			// would mail the key to whoever the manager chose, so the old link no longer mails anyone.
			sameEmail := platform.NormalizeEmail(e.Record.GetString("email")) == platform.NormalizeEmail(original.GetString("email"))
			e.Record.Set("linkReplaced", original.GetBool("linkReplaced") && sameEmail)
			if err := interview.RefusePastDeadline(e.App, e.Record); err != nil {
				return err
			}
		}
		return e.Next()
	})

	app.OnRecordAfterCreateSuccess("candidates").BindFunc(func(e *core.RecordEvent) error {
		mail.SendInterviewMail(e.App, e.Record, false, false)
		return e.Next()
	})
}

// setDefaultDeadline gives a new invite without a deadline its job's default response time (jobs.responseDays, when
// above 0), counted from now on the server's clock.
func setDefaultDeadline(app core.App, candidate *core.Record) {
	if candidate.GetString("deadline") != "" {
		return
	}
	job := platform.FindByIdOrNil(app, "jobs", candidate.GetString("job"))
	if job == nil {
		return
	}
	if days := job.GetInt("responseDays"); days > 0 {
		candidate.Set("deadline", platform.DBTime(platform.Now(app).Add(time.Duration(days)*24*time.Hour)))
	}
}

// stampWithdrawalAndReminders: withdrawing stamps withdrawnAt (the closed page's date), un-withdrawing clears it. A
// deadline moved later (or cleared) clears the reminder stamps, so the reminders go again before the new deadline.
func stampWithdrawalAndReminders(app core.App, candidate *core.Record) {
	original := candidate.Original()
	withdrawn := candidate.GetBool("withdrawn")
	if withdrawn != original.GetBool("withdrawn") {
		stamp := ""
		if withdrawn {
			stamp = platform.NowText(app)
		}
		candidate.Set("withdrawnAt", stamp)
	}
	before := original.GetString("deadline")
	after := candidate.GetString("deadline")
	if before == after {
		return
	}
	if after == "" || before == "" || later(after, before) {
		candidate.Set("remindedEarlyAt", "")
		candidate.Set("remindedLateAt", "")
	}
}

// later reports whether stored date a is after stored date b (false when either is unreadable).
func later(a, b string) bool {
	ta, okA := platform.ParseDBTime(a)
	tb, okB := platform.ParseDBTime(b)
	return okA && okB && ta.UnixMilli() > tb.UnixMilli()
}
