package mail

import (
	"bytes"
	htmltemplate "html/template"
	"strings"

	"github.com/pocketbase/pocketbase/core"
)

// Message is one e-mail: HTML always, Text when the e-mail has a plain-text part; Candidate is the candidate it is
// about, if any, so it goes with them (an erasure, retention or a deletion cascades to mail_queue.candidate).
type Message struct {
	To, Subject, HTML, Text, Candidate string
}

// Queue writes m into the mail queue, sent at a steady pace with retries (mail_queue.go): the request that caused it
// never waits on SMTP, and an SMTP error is retried instead of lost. Written with app, so inside a transaction it
// commits or rolls back with the record it is about.
func Queue(app core.App, m Message) (*core.Record, error) {
	collection, err := app.FindCachedCollectionByNameOrId(mailQueueCollection)
	if err != nil {
		return nil, err
	}
	record := core.NewRecord(collection)
	record.Set("to", m.To)
	record.Set("subject", m.Subject)
	record.Set("html", m.HTML)
	record.Set("text", m.Text)
	record.Set("status", "pending")
	record.Set("attempts", 0)
	if m.Candidate != "" {
		record.Set("candidate", m.Candidate)
	}
	if err := app.Save(record); err != nil {
		return nil, err
	}
	return record, nil
}

// html/template writes `"` as &#34; and `+` as &#43;; the e-mails have always said &quot; and a plain + (an address
// such as a+b@example.com reads as itself in the source, and tests look for &quot;). A value can never produce either
// entity itself: its own `&` is escaped first.
var entities = strings.NewReplacer("&#34;", "&quot;", "&#43;", "+")

// renderHTML runs an e-mail's HTML template.
func renderHTML(t *htmltemplate.Template, data any) (string, error) {
	var out bytes.Buffer
	if err := t.Execute(&out, data); err != nil {
		return "", err
	}
	return entities.Replace(out.String()), nil
}
