package mail

import (
	"screenroom/server/internal/platform"

	"strings"
	"testing"
)

// jsEscape is the escapeHtml of the former JS hooks, which wrote the manager e-mails before they were templates.
var jsEscape = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&#39;").Replace

func TestEncodeURIComponent(t *testing.T) {
	// what JavaScript's encodeURIComponent gives
	for in, want := range map[string]string{
		"a.b-c_d~e@example.com": "a.b-c_d~e%40example.com",
		"o'brien+x@example.com": "o'brien%2Bx%40example.com",
		"a b!*()&=?/#%":         "a%20b!*()%26%3D%3F%2F%23%25",
		"é":                     "%C3%A9",
	} {
		if got := platform.EncodeURIComponent(in); got != want {
			t.Errorf("platform.EncodeURIComponent(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCompletionNoticeToManagers(t *testing.T) {
	job, company := `R&D "lead" <b>`, "O'Brien & Sons+Co"
	ctx := mailContext{CompanyName: company, JobTitle: job, Link: "https://app.example.com/candidates/abc"}
	jobHTML, companyHTML := "<strong>"+jsEscape(job)+"</strong>", "<strong>"+jsEscape(company)+"</strong>"
	review := "https://app.example.com/companies/c1/jobs/j1/candidates/k1"
	profile := "https://app.example.com/preferences/profile"
	notice := "<p>Hello " + jsEscape("Ann <i>") + ",</p>" +
		"<p><strong>" + jsEscape("a+b@example.com") + "</strong> answered all the questions of the interview for " + jobHTML + " at " + companyHTML + ".</p>" +
		`<p><a href="` + review + `">Review the answers</a></p>` +
		"<p>You receive this e-mail because you manage " + jsEscape(company) + `. You can turn these e-mails off in your <a href="` + profile + `">profile</a>.</p>` +
		"<p>The Screenroom team</p>"
	if got, _ := renderHTML(noticeHTML, noticeData{ctx, "Ann <i>", "a+b@example.com", review, profile}); got != notice {
		t.Errorf("notice:\n got %s\nwant %s", got, notice)
	}
}

func TestWithdrawalNoticeNamesTheJobNotTheCandidate(t *testing.T) {
	data := withdrawalNoticeData{
		FirstName: "Ann", JobTitle: "R&D lead", CompanyName: "Acme GmbH", At: "24 November 2026 at 14:00 CET (Europe/Berlin)",
		AuditLog: "https://app.example.com/companies/c1/audit-log",
	}
	html, err := renderHTML(withdrawalNoticeHTML, data)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"<p>Hello Ann,</p>",
		"A candidate withdrew from the interview for <strong>R&amp;D lead</strong> at <strong>Acme GmbH</strong> on 24 November 2026 at 14:00 CET (Europe/Berlin).",
		`<a href="https://app.example.com/companies/c1/audit-log">audit log</a>`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("the notice lacks %q:\n%s", want, html)
		}
	}
	data.FirstName = ""
	if html, _ := renderHTML(withdrawalNoticeHTML, data); !strings.HasPrefix(html, "<p>Hello,</p>") {
		t.Errorf("without a first name: %s", html)
	}
}
