package mail

import (
	htmltemplate "html/template"
	"time"

	"github.com/pocketbase/pocketbase/core"

	"screenroom/server/internal/platform"
)

// The notice to a company's owner that the server disabled one of its webhook endpoints because every delivery to
// it had failed for too long (internal/webhooks, endpoint_health.go). English, as every manager e-mail; the times
// in the company's time zone. It says what stopped, why, and how to start it again.

var webhookDisabledHTML = htmltemplate.Must(htmltemplate.New("webhook disabled").Parse(
	`<p>Hello{{if .FirstName}} {{.FirstName}}{{end}},</p>` +
		`<p>Screenroom disabled the webhook endpoint <strong>{{.URL}}</strong> of <strong>{{.CompanyName}}</strong> on {{.At}}: every delivery to it has failed since {{.Since}}.</p>` +
		`{{if .LastError}}<p>The last error: {{.LastError}}</p>{{end}}` +
		`<p>No events are sent to it while it is disabled. Once your receiver works again, open the <a href="{{.Settings}}">webhook settings</a>, send a test event, and enable the endpoint; 'Send again' sends a failed delivery once more.</p>` +
		`<p>You receive this e-mail because you own {{.CompanyName}}.</p>` +
		`<p>The Screenroom team</p>`))

type webhookDisabledData struct {
	FirstName, URL, CompanyName, At, Since, LastError, Settings string
}

// DisabledEndpoint is what the notice says about the endpoint.
type DisabledEndpoint struct {
	URL          string
	FailingSince time.Time
	DisabledAt   time.Time
	LastError    string
}

// webhookSettingsLink is the company's webhook settings in the SPA (paths.companies.webhooks).
func webhookSettingsLink(app core.App, company *core.Record) string {
	return platform.AppURL(app) + "/companies/" + platform.EncodeURIComponent(company.Id) + "/webhooks"
}

// QueueWebhookDisabledNotice queues with app (the transaction that disables the endpoint, so the notice commits with
// it) the notice to owner that company's endpoint was disabled.
func QueueWebhookDisabledNotice(app core.App, company, owner *core.Record, endpoint DisabledEndpoint) error {
	zone := platform.CompanyZone(company)
	english := LocaleFor("en")
	html, err := renderHTML(webhookDisabledHTML, webhookDisabledData{
		FirstName:   owner.GetString("firstName"),
		URL:         endpoint.URL,
		CompanyName: company.GetString("name"),
		At:          english.DateTime(endpoint.DisabledAt, zone).Text,
		Since:       english.DateTime(endpoint.FailingSince, zone).Text,
		LastError:   endpoint.LastError,
		Settings:    webhookSettingsLink(app, company),
	})
	if err != nil {
		return err
	}
	subject := "Webhook endpoint disabled: " + endpoint.URL
	if runes := []rune(subject); len(runes) > 160 {
		subject = string(runes[:159]) + "…"
	}
	_, err = Queue(app, Message{To: owner.Email(), Subject: subject, HTML: html})
	return err
}
