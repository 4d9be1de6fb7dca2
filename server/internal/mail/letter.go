package mail

import (
	htmltemplate "html/template"
	"strings"
	"time"

	"github.com/pocketbase/pocketbase/core"

	"screenroom/server/internal/platform"
)

// A letter is an e-mail to a candidate, in their language (candidates.language, the switcher's choice, else their
// job's): paragraphs of catalog messages, then the closing and the company's name as the signature, then the one line
// naming the product (left out when the company turned it off, companies.mailFooterOff). Every letter carries the
// data-request link (what is kept of the candidate, for how long, and their own withdrawal). Times are in the
// company's time zone with its name. The HTML is a whole document whose body has the language's direction (dir="rtl"
// in Arabic); the plain-text part says the same.

// mailContext is what every e-mail about a candidate's interview names: its job, the job's company, the candidate's
// link, and the language, time zone and signature of the letters to them.
type mailContext struct {
	job, company          *core.Record
	CompanyName, JobTitle string
	Link, DataLink        string
	locale                *Locale
	zone                  *time.Location
	footer                bool
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
		DataLink:    platform.DataRequestLink(app, candidate),
		locale:      LocaleFor(platform.CandidateLanguage(candidate, job)),
		zone:        platform.CompanyZone(company),
		footer:      !company.GetBool("mailFooterOff"),
	}, nil
}

// names are the arguments most messages take: the job and the company, in bold in HTML.
func (c mailContext) names() map[string]Value {
	return map[string]Value{"job": Strong(c.JobTitle), "company": Strong(c.CompanyName)}
}

// subject is a subject line: the message with the job and the company.
func (c mailContext) subject(key string) string {
	return c.locale.Text(key, map[string]string{"job": c.JobTitle, "company": c.CompanyName})
}

// hello is the greeting, by first name when the candidate has one.
func (c mailContext) hello(candidate *core.Record) Value {
	if name := strings.TrimSpace(candidate.GetString("firstName")); name != "" {
		return c.locale.Say("common.helloName", map[string]Value{"name": Plain(name)})
	}
	return c.locale.Say("common.hello", nil)
}

// deadline is the moment in the company's time zone, as the candidate's language writes it.
func (c mailContext) deadline(t time.Time) Value {
	value := c.locale.DateTime(t, c.zone)
	value.HTML = "<strong>" + value.HTML + "</strong>"
	return value
}

// letter is the whole e-mail: body paragraphs, then what every letter ends with.
type letter struct {
	Lang, Dir  string
	Paragraphs []htmltemplate.HTML
	Closing    htmltemplate.HTML
	Signature  string
	Footer     htmltemplate.HTML
	text       []string
}

var letterHTML = htmltemplate.Must(htmltemplate.New("letter").Parse(
	`<!DOCTYPE html><html lang="{{.Lang}}" dir="{{.Dir}}"><head><meta charset="utf-8"></head><body dir="{{.Dir}}">` +
		`{{range .Paragraphs}}<p>{{.}}</p>{{end}}` +
		`<p>{{.Closing}}<br>{{.Signature}}</p>` +
		`{{if .Footer}}<p style="color:#6b7280;font-size:12px">{{.Footer}}</p>{{end}}` +
		`</body></html>`))

// write renders the letter of paragraphs (each a catalog message said, or a link) to the candidate: the data-request
// line, the closing (closingKey) signed with the company's name, and the footer follow them.
func (c mailContext) write(to, subject, closingKey string, candidateID string, paragraphs ...Value) (Message, error) {
	paragraphs = append(paragraphs, c.locale.Say("common.dataRequest", map[string]Value{"company": Plain(c.CompanyName), "link": Link(c.DataLink)}))
	l := letter{Lang: c.locale.Language, Dir: c.locale.Dir(), Signature: c.CompanyName}
	closing := c.locale.Say(closingKey, nil)
	l.Closing = closing.HTML
	for _, p := range paragraphs {
		l.Paragraphs = append(l.Paragraphs, p.HTML)
		l.text = append(l.text, p.Text)
	}
	l.text = append(l.text, closing.Text+"\n"+c.CompanyName)
	if c.footer {
		footer := c.locale.Say("common.footer", map[string]Value{"company": Plain(c.CompanyName)})
		l.Footer = footer.HTML
		l.text = append(l.text, "--\n"+footer.Text)
	}
	html, err := renderHTML(letterHTML, l)
	if err != nil {
		return Message{}, err
	}
	return Message{To: to, Subject: subject, HTML: html, Text: strings.Join(l.text, "\n\n") + "\n", Candidate: candidateID}, nil
}
