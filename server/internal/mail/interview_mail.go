package mail

import (
	htmltemplate "html/template"
	texttemplate "text/template"

	"github.com/pocketbase/pocketbase/core"

	"screenroom/server/internal/platform"
)

// mailContext is what every e-mail about a candidate's interview names: its job, the job's company and the
// candidate's link (the interview e-mail, the reminders and the completion e-mails).
type mailContext struct {
	job, company          *core.Record
	CompanyName, JobTitle string
	Link                  string
}

func interviewMailContext(app core.App, candidate *core.Record) (mailContext, error) {
	job, company, err := platform.JobAndCompanyOf(app, candidate)
	if err != nil {
		return mailContext{}, err
	}
	return mailContext{
		job:         job,
		company:     company,
		CompanyName: company.GetString("name"),
		JobTitle:    job.GetString("title"),
		Link:        platform.InterviewLink(app, candidate),
	}, nil
}

// The interview e-mail (business rule 6): Again for a link sent anew, Resent for the same invitation sent again by a
// manager.
var interviewHTML = htmltemplate.Must(htmltemplate.New("interview").Parse(
	`<p>{{.Hello}}</p>` +
		`{{if .Again}}` +
		`<p>Your interview link for the <strong>{{.JobTitle}}</strong> position at <strong>{{.CompanyName}}</strong> has changed. This is your new link:</p>` +
		`{{else}}` +
		`{{if .Resent}}<p>A reminder of your invitation:</p>{{end}}` +
		`<p><strong>{{.CompanyName}}</strong> invites you to a video interview for the <strong>{{.JobTitle}}</strong> position.</p>` +
		`<p>Answer the questions in your own time, on any device with a camera:</p>` +
		`{{end}}` +
		`<p><a href="{{.Link}}">{{.Link}}</a></p>` +
		`<p>If your connection drops, open the same link again: your interview resumes where you left it.</p>` +
		`<p>Good luck!<br>The Screenroom team</p>`))

var interviewText = texttemplate.Must(texttemplate.New("interview").Parse(
	"{{.Hello}}\n\n" +
		"{{if .Again}}" +
		"Your interview link for the {{.JobTitle}} position at {{.CompanyName}} has changed. This is your new link:\n\n" +
		"{{else}}" +
		"{{if .Resent}}A reminder of your invitation:\n\n{{end}}" +
		"{{.CompanyName}} invites you to a video interview for the {{.JobTitle}} position.\n\n" +
		"Answer the questions in your own time, on any device with a camera:\n\n" +
		"{{end}}" +
		"{{.Link}}\n\n" +
		"If your connection drops, open the same link again: your interview resumes where you left it.\n\n" +
		"Good luck!\nThe Screenroom team\n"))

type interviewData struct {
	mailContext
	Hello         string
	Again, Resent bool
}

// InterviewMail is the interview e-mail to candidate, with its link: again for a link sent anew, resent for the same
// invitation sent again by a manager. One content for the single invite, the CSV import, a replaced link and a
// resend; Candidate is set, so the e-mail goes with the candidate.
func InterviewMail(app core.App, candidate *core.Record, again, resent bool) (Message, error) {
	ctx, err := interviewMailContext(app, candidate)
	if err != nil {
		return Message{}, err
	}
	hello := "Hello,"
	if name := candidate.GetString("firstName"); name != "" {
		hello = "Hello " + name + ","
	}
	data := interviewData{ctx, hello, again, resent}
	html, err := renderHTML(interviewHTML, data)
	if err != nil {
		return Message{}, err
	}
	text, err := renderText(interviewText, data)
	if err != nil {
		return Message{}, err
	}
	return Message{
		To:        candidate.GetString("email"),
		Subject:   "Your interview for " + ctx.JobTitle + " at " + ctx.CompanyName,
		HTML:      html,
		Text:      text,
		Candidate: candidate.Id,
	}, nil
}

// SendInterviewMail queues the interview e-mail (single invites, CSV imports and resends alike); a failure to queue
// is logged, never fails the request that caused it.
func SendInterviewMail(app core.App, candidate *core.Record, again, resent bool) {
	message, err := InterviewMail(app, candidate, again, resent)
	if err == nil {
		_, err = Queue(app, message)
	}
	if err != nil {
		app.Logger().Error("queueing the interview mail failed", "candidate", candidate.Id, "error", err.Error())
	}
}
