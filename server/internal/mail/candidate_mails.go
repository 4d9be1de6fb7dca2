package mail

import (
	htmltemplate "html/template"
	"os"
	"strings"
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"

	"screenroom/server/internal/platform"
)

// The e-mails the server sends on its own about a candidate's interview: the reminders before the deadline (the cron
// screenroom_reminders) and, once the candidate has answered every question, the receipt to the candidate and the
// notice to the job's company's managers.
//
// Each is sent at most once: a conditional UPDATE stamps the candidate (remindedEarlyAt, remindedLateAt,
// completionMailedAt) only while the stamp is empty and the candidate still qualifies, and only the writer whose
// UPDATE changed the row sends. Two cron runs, or two answers finishing together, can never both send. The stamp and
// the e-mail are written in one transaction to the mail queue: the answer's request or the cron run never waits on
// SMTP, and a mail server that fails delays the e-mail rather than losing it.
//
// None of them draws from the per-address mail budget (platform/throttle.go): that budget stops a client from making
// the product mail one address over and over (invites, links sent again, resets). These are fixed in number per
// candidate (two reminders, one receipt, one notice per manager), caused by the server's clock or the candidate's own
// last answer, and no request can repeat them; drawn from the budget, a reminder would silently go missing whenever a
// manager had just sent the candidate a new link.

// reminder is one of the two reminders. A candidate is due one when its deadline is at most before away and more
// than until away, and it was invited more than before ahead of the deadline (someone invited 10 hours before it
// gets only the 4-hour one: a "48 hours left" e-mail would arrive with the invite). The windows do not overlap, and
// once a deadline is nearer than 4 hours the early one is never sent late.
type reminder struct {
	kind, field   string
	before, until time.Duration
}

var reminders = []reminder{
	{kind: "early", field: "remindedEarlyAt", before: 48 * time.Hour, until: 4 * time.Hour},
	{kind: "late", field: "remindedLateAt", before: 4 * time.Hour, until: 0},
}

// stillOpen: not withdrawn, not completed, and its job not closed (a closed job's link shows the closed page, so no
// reminder points at it).
const stillOpen = "withdrawn = FALSE AND COALESCE(status, '') != 'completed' AND NOT EXISTS (SELECT 1 FROM jobs cj WHERE cj.id = candidates.job AND COALESCE(cj.closedAt, '') != '')"

type dueRow struct {
	ID       string `db:"id"`
	Deadline string `db:"deadline"`
	Created  string `db:"created"`
}

// dueFor is the candidates due r at now.
func dueFor(app core.App, r reminder, now time.Time) ([]dueRow, error) {
	var rows []dueRow
	err := app.DB().NewQuery(
		"SELECT id, deadline, created FROM candidates WHERE deadline > {:after} AND deadline <= {:upTo} AND COALESCE(" +
			r.field + ", '') = '' AND " + stillOpen,
	).Bind(dbx.Params{"after": platform.DBTime(now.Add(r.until)), "upTo": platform.DBTime(now.Add(r.before))}).All(&rows)
	if err != nil {
		return nil, err
	}
	due := rows[:0]
	for _, row := range rows {
		deadline, okDeadline := platform.ParseDBTime(row.Deadline)
		created, okCreated := platform.ParseDBTime(row.Created)
		if okDeadline && okCreated && deadline.Sub(created) > r.before {
			due = append(due, row)
		}
	}
	return due, nil
}

// stampReminder stamps r's field of candidate id with now if nobody has, the deadline is still the one the reminder
// was chosen for and the candidate is still open; true when this call stamped it (and so sends).
func stampReminder(app core.App, r reminder, id, deadline, now string) (bool, error) {
	result, err := app.DB().NewQuery(
		"UPDATE candidates SET " + r.field + " = {:now} WHERE id = {:id} AND deadline = {:deadline} AND COALESCE(" +
			r.field + ", '') = '' AND " + stillOpen,
	).Bind(dbx.Params{"id": id, "deadline": deadline, "now": now}).Execute()
	if err != nil {
		return false, err
	}
	affected, err := result.RowsAffected()
	return affected == 1, err
}

// reminderMail is the reminder r to candidate, in their language: the deadline (in the company's time zone), and
// for a candidate who has started, that the link takes them back to where they left off.
func reminderMail(app core.App, r reminder, candidate *core.Record) (Message, error) {
	ctx, err := interviewMailContext(app, candidate)
	if err != nil {
		return Message{}, err
	}
	return reminderLetter(ctx, r, candidate)
}

func reminderLetter(ctx mailContext, r reminder, candidate *core.Record) (Message, error) {
	say := ctx.locale.Say
	deadline, _ := platform.ParseDBTime(candidate.GetString("deadline"))
	paragraphs := []Value{ctx.hello(candidate), say("reminder."+r.kind, ctx.names()),
		say("reminder.deadline", map[string]Value{"deadline": ctx.deadline(deadline)})}
	if candidate.GetString("status") == "started" {
		paragraphs = append(paragraphs, say("reminder.started", nil))
	}
	paragraphs = append(paragraphs, Link(ctx.Link))
	return ctx.write(candidate.GetString("email"), ctx.subject("reminder."+r.kind+"Subject"), "common.closingGoodLuck", candidate.Id, paragraphs...)
}

// sendDueReminders is one run of the reminders: every due candidate is stamped and mailed once. It returns how many
// of each kind were sent.
func sendDueReminders(app core.App) map[string]int {
	now := platform.Now(app)
	sent := map[string]int{"early": 0, "late": 0}
	for _, r := range reminders {
		rows, err := dueFor(app, r, now)
		if err != nil {
			app.Logger().Error("reminders: reading due candidates failed", "kind", r.kind, "error", err.Error())
			continue
		}
		for _, row := range rows {
			queued := false
			err := app.RunInTransaction(func(tx core.App) error {
				stamped, err := stampReminder(tx, r, row.ID, row.Deadline, platform.DBTime(now))
				if err != nil || !stamped {
					return err
				}
				candidate := platform.FindByIdOrNil(tx, "candidates", row.ID)
				if candidate == nil {
					return nil
				}
				message, err := reminderMail(tx, r, candidate)
				if err != nil {
					return err
				}
				if _, err := Queue(tx, message); err != nil {
					return err
				}
				queued = true
				return nil
			})
			if err != nil {
				// one broken candidate (its job deleted meanwhile) does not stop the others' reminders
				app.Logger().Error("reminder failed", "candidate", row.ID, "kind", r.kind, "error", err.Error())
				continue
			}
			if queued {
				sent[r.kind]++
			}
		}
	}
	return sent
}

// registerReminders adds the cron screenroom_reminders: every 10 minutes by default, so a reminder leaves at most 10
// minutes after it is due. REMINDERS_SCHEDULE (a cron expression) changes that; the reminders' tests set one that
// never comes ("0 0 31 2 *"), so only the runs they start through the crons API happen. A malformed one stops
// PocketBase from starting: a silent fallback would hide it. Each run logs what it sent (the tests read that entry to
// know a run has finished: the crons API only starts one).
func registerReminders(app core.App) {
	schedule := strings.TrimSpace(os.Getenv("REMINDERS_SCHEDULE"))
	if schedule == "" {
		schedule = "*/10 * * * *"
	}
	app.Cron().MustAdd("screenroom_reminders", schedule, func() {
		sent := sendDueReminders(app)
		app.Logger().Info("screenroom_reminders", "early", sent["early"], "late", sent["late"])
	})
}

// reviewLink is the review screen of a candidate in the SPA (paths.companies.jobs.candidate of src/config/paths.ts).
func reviewLink(app core.App, company, job, candidate *core.Record) string {
	return platform.AppURL(app) + "/companies/" + platform.EncodeURIComponent(company.Id) + "/jobs/" + platform.EncodeURIComponent(job.Id) +
		"/candidates/" + platform.EncodeURIComponent(candidate.Id)
}

// profileLink is the profile screen, where a manager turns the completion e-mails off (paths.preferences.profile).
func profileLink(app core.App) string {
	return platform.AppURL(app) + "/preferences/profile"
}

// receiptMail is the receipt to a candidate who answered every question, in their language.
func receiptMail(ctx mailContext, candidate *core.Record) (Message, error) {
	say := ctx.locale.Say
	return ctx.write(candidate.GetString("email"), ctx.subject("receipt.subject"), "common.closingBestWishes", candidate.Id,
		ctx.hello(candidate), say("receipt.thanks", ctx.names()), say("receipt.next", map[string]Value{"company": Plain(ctx.CompanyName)}))
}

var noticeHTML = htmltemplate.Must(htmltemplate.New("notice").Parse(
	`<p>Hello {{.FirstName}},</p>` +
		`<p><strong>{{.Email}}</strong> answered all the questions of the interview for <strong>{{.JobTitle}}</strong> at <strong>{{.CompanyName}}</strong>.</p>` +
		`<p><a href="{{.Review}}">Review the answers</a></p>` +
		`<p>You receive this e-mail because you manage {{.CompanyName}}. You can turn these e-mails off in your <a href="{{.Profile}}">profile</a>.</p>` +
		`<p>The Screenroom team</p>`))

type noticeData struct {
	mailContext
	FirstName, Email, Review, Profile string
}

// sendCompletionMails sends the completion e-mails of candidate candidateID if it is completed and nobody sent them
// yet: the receipt to the candidate and a notice to each manager of the job's company who has not turned them off.
// Outside any transaction (after the answer is committed).
func sendCompletionMails(app core.App, candidateID string) error {
	if candidateID == "" {
		return nil
	}
	return app.RunInTransaction(func(tx core.App) error {
		stamped, err := tx.DB().NewQuery(
			"UPDATE candidates SET completionMailedAt = {:now} WHERE id = {:id} AND status = 'completed' AND COALESCE(completionMailedAt, '') = ''",
		).Bind(dbx.Params{"id": candidateID, "now": platform.NowText(tx)}).Execute()
		if err != nil {
			return err
		}
		if affected, err := stamped.RowsAffected(); err != nil || affected != 1 {
			return err
		}
		candidate := platform.FindByIdOrNil(tx, "candidates", candidateID)
		if candidate == nil {
			return nil
		}
		ctx, err := interviewMailContext(tx, candidate)
		if err != nil {
			return err
		}
		receipt, err := receiptMail(ctx, candidate)
		if err != nil {
			return err
		}
		if _, err := Queue(tx, receipt); err != nil {
			return err
		}
		managerIDs := ctx.company.GetStringSlice("managers")
		if len(managerIDs) == 0 {
			return nil
		}
		managers, err := tx.FindRecordsByIds("users", managerIDs)
		if err != nil {
			return err
		}
		email := candidate.GetString("email")
		review := reviewLink(tx, ctx.company, ctx.job, candidate)
		profile := profileLink(tx)
		for _, manager := range managers {
			if manager.GetBool("completionMailsOff") {
				continue
			}
			notice, err := renderHTML(noticeHTML, noticeData{ctx, manager.GetString("firstName"), email, review, profile})
			if err != nil {
				return err
			}
			// the notice names the candidate: it goes with them (erasure, retention, deletion) as their own e-mails do
			_, err = Queue(tx, Message{
				To:        manager.Email(),
				Subject:   email + " finished the interview for " + ctx.JobTitle,
				HTML:      notice,
				Candidate: candidate.Id,
			})
			if err != nil {
				return err
			}
		}
		return nil
	})
}

// sendJobCompletionMails sends the completion e-mails of the completed candidates of job jobID whose e-mails are
// not sent (after its questions changed).
func sendJobCompletionMails(app core.App, jobID string) error {
	var rows []struct {
		ID string `db:"id"`
	}
	err := app.DB().NewQuery(
		"SELECT id FROM candidates WHERE job = {:job} AND status = 'completed' AND COALESCE(completionMailedAt, '') = ''",
	).Bind(dbx.Params{"job": jobID}).All(&rows)
	if err != nil {
		return err
	}
	for _, row := range rows {
		if err := sendCompletionMails(app, row.ID); err != nil {
			return err
		}
	}
	return nil
}

// registerCompletionMails: when a candidate becomes completed (its status is set inside the transaction that stores
// its last answer, or the save of its job whose questions changed), the receipt and the notices, once. After-success
// hooks run once the transaction has committed, so the e-mails never go for an answer that was rolled back, and never
// slow or fail it: whatever goes wrong here is logged, as the answer is already stored.
func registerCompletionMails(app core.App) {
	// every way an answer is stored creates an answers record: the answers route (a whole file, a text, a staged
	// take), a superuser's records or batch API
	app.OnRecordAfterCreateSuccess("answers").BindFunc(func(e *core.RecordEvent) error {
		if err := e.Next(); err != nil {
			return err
		}
		candidate := e.Record.GetString("candidate")
		if err := sendCompletionMails(e.App, candidate); err != nil {
			e.App.Logger().Error("completion mails failed", "candidate", candidate, "error", err.Error())
		}
		return nil
	})
	// a job's questions changed (one taken out): candidates who had answered all the others are now completed
	app.OnRecordAfterUpdateSuccess("jobs").BindFunc(func(e *core.RecordEvent) error {
		if err := e.Next(); err != nil {
			return err
		}
		if err := sendJobCompletionMails(e.App, e.Record.Id); err != nil {
			e.App.Logger().Error("completion mails failed", "job", e.Record.Id, "error", err.Error())
		}
		return nil
	})
}
