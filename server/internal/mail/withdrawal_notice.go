package mail

import (
	htmltemplate "html/template"
	"time"

	"github.com/pocketbase/pocketbase/core"

	"screenroom/server/internal/platform"
)

// The notice to a company's managers that a candidate withdrew from one of its jobs and had their answers deleted (the
// interview's withdraw route). In English, as every manager e-mail; the time in the company's time zone. It names the
// job, never the candidate: no name, no address, no id or link of theirs, since what it is about no longer exists and
// the erasure must leave nothing of them behind. So it is queued without mail_queue.candidate, and outlives them.

var withdrawalNoticeHTML = htmltemplate.Must(htmltemplate.New("withdrawal notice").Parse(
	`<p>Hello{{if .FirstName}} {{.FirstName}}{{end}},</p>` +
		`<p>A candidate withdrew from the interview for <strong>{{.JobTitle}}</strong> at <strong>{{.CompanyName}}</strong> on {{.At}}. As they asked, their answers and everything else about them were deleted.</p>` +
		`<p>The company's <a href="{{.AuditLog}}">audit log</a> records the withdrawal.</p>` +
		`<p>You receive this e-mail because you manage {{.CompanyName}}.</p>` +
		`<p>The Screenroom team</p>`))

type withdrawalNoticeData struct {
	FirstName, JobTitle, CompanyName, At, AuditLog string
}

// auditLogLink is the company's audit log in the SPA (paths.companies.auditLog).
func auditLogLink(app core.App, company *core.Record) string {
	return platform.AppURL(app) + "/companies/" + platform.EncodeURIComponent(company.Id) + "/audit-log"
}

// QueueWithdrawalNotices queues with app (the withdrawal's transaction, so the notices commit with the erasure) the
// notice to every manager of company that a candidate withdrew from job at `at`.
func QueueWithdrawalNotices(app core.App, company, job *core.Record, at time.Time) error {
	managerIDs := company.GetStringSlice("managers")
	if len(managerIDs) == 0 {
		return nil
	}
	managers, err := app.FindRecordsByIds("users", managerIDs)
	if err != nil {
		return err
	}
	data := withdrawalNoticeData{
		JobTitle:    job.GetString("title"),
		CompanyName: company.GetString("name"),
		At:          LocaleFor("en").DateTime(at, platform.CompanyZone(company)).Text,
		AuditLog:    auditLogLink(app, company),
	}
	for _, manager := range managers {
		data.FirstName = manager.GetString("firstName")
		html, err := renderHTML(withdrawalNoticeHTML, data)
		if err != nil {
			return err
		}
		_, err = Queue(app, Message{To: manager.Email(), Subject: "A candidate withdrew from the interview for " + data.JobTitle, HTML: html})
		if err != nil {
			return err
		}
	}
	return nil
}
