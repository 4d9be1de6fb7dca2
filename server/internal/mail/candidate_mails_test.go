package mail

import (
	"screenroom/server/internal/platform"

	"testing"
	"time"
)

func TestDeadlineText(t *testing.T) {
	for at, want := range map[time.Time]string{
		time.Date(2026, 11, 24, 13, 0, 0, 0, time.UTC):                  "24 November 2026 at 13:00 UTC",
		time.Date(2027, 1, 5, 9, 7, 59, 0, time.UTC):                    "5 January 2027 at 09:07 UTC",
		time.Date(2026, 3, 1, 0, 30, 0, 0, time.FixedZone("CET", 3600)): "28 February 2026 at 23:30 UTC",
	} {
		if got := deadlineText(at); got != want {
			t.Errorf("deadlineText(%v) = %q, want %q", at, got, want)
		}
	}
}

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

func TestCompletionAndReminderMailsMatchTheJoinedHTML(t *testing.T) {
	job, company := `R&D "lead" <b>`, "O'Brien & Sons+Co"
	ctx := mailContext{CompanyName: company, JobTitle: job, Link: "https://app.example.com/candidates/abc"}
	jobHTML, companyHTML := "<strong>"+jsEscape(job)+"</strong>", "<strong>"+jsEscape(company)+"</strong>"
	link := `<p><a href="` + jsEscape(ctx.Link) + `">` + jsEscape(ctx.Link) + "</a></p>"
	deadline := "24 November 2026 at 13:00 UTC"
	for _, data := range []reminderData{{ctx, true, false, deadline}, {ctx, false, true, deadline}} {
		want := "<p>Hello,</p>"
		if data.Early {
			want += "<p>This is a friendly reminder that your video interview for the " + jobHTML + " position at " + companyHTML + " is still waiting for you.</p>"
		} else {
			want += "<p>Your video interview for the " + jobHTML + " position at " + companyHTML + " closes in a few hours.</p>"
		}
		want += "<p>Please send your answers by <strong>" + deadline + "</strong>. After that, the link no longer accepts answers.</p>"
		if data.Started {
			want += "<p>You have already answered some of the questions: the link takes you back to where you left off.</p>"
		}
		want += link + "<p>Good luck!<br>The Screenroom team</p>"
		if got, _ := renderHTML(reminderHTML, data); got != want {
			t.Errorf("reminder:\n got %s\nwant %s", got, want)
		}
	}

	receipt := "<p>Hello,</p>" +
		"<p>Thank you for completing your video interview for the " + jobHTML + " position at " + companyHTML + ". We received all your answers.</p>" +
		"<p>There is nothing else you need to do. The team at " + jsEscape(company) + " will now review your answers.</p>" +
		"<p>Best wishes,<br>The Screenroom team</p>"
	if got, _ := renderHTML(receiptHTML, ctx); got != receipt {
		t.Errorf("receipt:\n got %s\nwant %s", got, receipt)
	}

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
