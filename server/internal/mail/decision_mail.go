package mail

import (
	htmltemplate "html/template"
	"strings"

	"github.com/pocketbase/pocketbase/core"

	"screenroom/server/internal/platform"
)

// A decision message (internal/messages): the words a company chose for an advance or a reject, sent as a letter
// like every other e-mail to a candidate: the greeting in the candidate's language, the company's words, then the
// data-request line, the closing, the company's name as the signature and the footer line.

// DefaultDecisionText is the product's own subject and body for kind ("advance" or "reject") in language, with
// the placeholders {name}, {job} and {company} left as they are: the text a company starts from, and the one sent
// where it wrote none.
func DefaultDecisionText(language, kind string) (subject, body string) {
	locale := LocaleFor(language)
	placeholders := map[string]string{"name": "{name}", "job": "{job}", "company": "{company}"}
	return locale.Text("decision."+kind+"Subject", placeholders), locale.Text("decision."+kind+"Body", placeholders)
}

// DecisionMail is the letter to candidate with subject and body, both already filled in (no placeholder left): in
// the candidate's language, the body's paragraphs as written. preview: the data-request link shows no key (the
// manager who previews must not read the candidate's credential); the letter queued is written with preview false.
func DecisionMail(app core.App, candidate *core.Record, subject, body string, preview bool) (Message, error) {
	ctx, err := interviewMailContext(app, candidate)
	if err != nil {
		return Message{}, err
	}
	if preview {
		ctx.DataLink = previewDataLink(app)
	}
	return decisionLetter(ctx, candidate, subject, body)
}

func decisionLetter(ctx mailContext, candidate *core.Record, subject, body string) (Message, error) {
	paragraphs := append([]Value{ctx.hello(candidate)}, bodyParagraphs(body)...)
	return ctx.write(candidate.GetString("email"), subject, "common.closingBestWishes", candidate.Id, paragraphs...)
}

// SampleDecisionMail is the same letter for the template editor's preview: to a candidate named firstName of a job
// titled jobTitle at company, in language; nobody's link.
func SampleDecisionMail(app core.App, company *core.Record, language, firstName, jobTitle, subject, body string) (Message, error) {
	ctx := mailContext{
		company:     company,
		CompanyName: company.GetString("name"),
		JobTitle:    jobTitle,
		DataLink:    previewDataLink(app),
		locale:      LocaleFor(language),
		zone:        platform.CompanyZone(company),
		footer:      !company.GetBool("mailFooterOff"),
	}
	hello := ctx.locale.Say("common.helloName", map[string]Value{"name": Plain(firstName)})
	paragraphs := append([]Value{hello}, bodyParagraphs(body)...)
	return ctx.write("", subject, "common.closingBestWishes", "", paragraphs...)
}

// previewDataLink stands for a candidate's data-request link in a preview: the same address with its key left out.
func previewDataLink(app core.App) string {
	return platform.AppURL(app) + "/candidates/…/data"
}

// bodyParagraphs cuts a body at its blank lines; a single line break stays one (<br> in HTML).
func bodyParagraphs(body string) []Value {
	body = strings.ReplaceAll(strings.ReplaceAll(body, "\r\n", "\n"), "\r", "\n")
	var paragraphs []Value
	for _, block := range strings.Split(body, "\n\n") {
		block = strings.Trim(block, "\n")
		if strings.TrimSpace(block) == "" {
			continue
		}
		lines := strings.Split(block, "\n")
		escaped := make([]string, len(lines))
		for i, line := range lines {
			escaped[i] = htmltemplate.HTMLEscapeString(line)
		}
		paragraphs = append(paragraphs, Value{Text: block, HTML: htmltemplate.HTML(strings.Join(escaped, "<br>"))})
	}
	return paragraphs
}
