package mail

import (
	"strings"
	"testing"
)

// jsEscape is the escapeHtml of the former JS hooks, which wrote the e-mails before they were templates.
var jsEscape = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&#39;").Replace

// The interview e-mail as the former JS hooks' interviewMailContent joined it (interview_mail.go writes it now).
func jsInterviewHTML(hello, jobTitle, companyName, link string, again, resent bool) string {
	html := "<p>" + jsEscape(hello) + "</p>"
	if again {
		html += "<p>Your interview link for the <strong>" + jsEscape(jobTitle) + "</strong> position at <strong>" + jsEscape(companyName) + "</strong> has changed. This is your new link:</p>"
	} else {
		if resent {
			html += "<p>A reminder of your invitation:</p>"
		}
		html += "<p><strong>" + jsEscape(companyName) + "</strong> invites you to a video interview for the <strong>" + jsEscape(jobTitle) + "</strong> position.</p>" +
			"<p>Answer the questions in your own time, on any device with a camera:</p>"
	}
	return html + `<p><a href="` + jsEscape(link) + `">` + jsEscape(link) + "</a></p>" +
		"<p>If your connection drops, open the same link again: your interview resumes where you left it.</p>" +
		"<p>Good luck!<br>The Screenroom team</p>"
}

func jsInterviewText(hello, jobTitle, companyName, link string, again, resent bool) string {
	text := hello + "\n\n"
	if again {
		text += "Your interview link for the " + jobTitle + " position at " + companyName + " has changed. This is your new link:\n\n"
	} else {
		if resent {
			text += "A reminder of your invitation:\n\n"
		}
		text += companyName + " invites you to a video interview for the " + jobTitle + " position.\n\nAnswer the questions in your own time, on any device with a camera:\n\n"
	}
	return text + link + "\n\n" +
		"If your connection drops, open the same link again: your interview resumes where you left it.\n\n" +
		"Good luck!\nThe Screenroom team\n"
}

func TestInterviewMailMatchesTheJoinedHTML(t *testing.T) {
	link := "https://app.example.com/candidates/abcdefghijABCDEFGHIJ0123456789abcdefghij"
	for _, names := range [][3]string{
		{"Hello,", "Support engineer", "Acme"},
		{`Hello <img src=x onerror="alert(1)">,`, "R&D <lead>", "O'Brien & Sons"},
		{"Hello a+b,", `"Quoted" job`, "Plus+Co &#34; &quot;"},
	} {
		for _, flags := range [][2]bool{{false, false}, {true, false}, {false, true}, {true, true}} {
			data := interviewData{mailContext{CompanyName: names[2], JobTitle: names[1], Link: link}, names[0], flags[0], flags[1]}
			html, err := renderHTML(interviewHTML, data)
			if err != nil {
				t.Fatal(err)
			}
			if want := jsInterviewHTML(names[0], names[1], names[2], link, flags[0], flags[1]); html != want {
				t.Errorf("html %v %v:\n got %s\nwant %s", names, flags, html, want)
			}
			text, err := renderText(interviewText, data)
			if err != nil {
				t.Fatal(err)
			}
			if want := jsInterviewText(names[0], names[1], names[2], link, flags[0], flags[1]); text != want {
				t.Errorf("text %v %v:\n got %q\nwant %q", names, flags, text, want)
			}
		}
	}
}
