package mail

import (
	"regexp"
	"strings"
	"testing"

	"github.com/pocketbase/pocketbase/core"

	"screenroom/server/internal/platform"
)

const (
	testLink     = "https://app.example.com/candidates/abcdefghijABCDEFGHIJ0123456789abcdefghij"
	testDataLink = testLink + "/data"
)

func candidateFixture(firstName, deadline, status string) *core.Record {
	collection := core.NewBaseCollection("candidates")
	collection.Fields.Add(
		&core.TextField{Name: "email"},
		&core.TextField{Name: "firstName"},
		&core.TextField{Name: "deadline"},
		&core.TextField{Name: "status"},
	)
	record := core.NewRecord(collection)
	record.Id = "candidaterecord"
	record.Set("email", "grace@example.com")
	record.Set("firstName", firstName)
	record.Set("deadline", deadline)
	record.Set("status", status)
	return record
}

func contextFixture(language, company, job, zoneName string, footer bool) mailContext {
	return mailContext{
		CompanyName: company, JobTitle: job, Link: testLink, DataLink: testDataLink,
		locale: LocaleFor(language), zone: platform.Zone(zoneName), footer: footer,
	}
}

// every letter a candidate receives, for one context
func everyLetter(t *testing.T, ctx mailContext, candidate *core.Record) map[string]Message {
	t.Helper()
	letters := map[string]Message{}
	add := func(name string, m Message, err error) {
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		letters[name] = m
	}
	m, err := interviewLetter(ctx, candidate, false, false)
	add("invite", m, err)
	m, err = interviewLetter(ctx, candidate, false, true)
	add("resent", m, err)
	m, err = interviewLetter(ctx, candidate, true, false)
	add("again", m, err)
	for _, r := range reminders {
		m, err = reminderLetter(ctx, r, candidate)
		add("reminder "+r.kind, m, err)
	}
	m, err = receiptMail(ctx, candidate)
	add("receipt", m, err)
	for _, kind := range []string{"advance", "reject"} {
		subject, body := DefaultDecisionText(ctx.locale.Language, kind)
		filled := strings.NewReplacer("{name}", candidate.GetString("firstName"), "{job}", ctx.JobTitle, "{company}", ctx.CompanyName)
		m, err = decisionLetter(ctx, candidate, filled.Replace(subject), filled.Replace(body))
		add("decision "+kind, m, err)
	}
	return letters
}

var tag = regexp.MustCompile(`<[^>]*>`)

func TestTheInviteInGermanStatesTheDeadlineInTheCompanysZoneAndIsSignedByTheCompany(t *testing.T) {
	ctx := contextFixture("de", "Acme GmbH", "Support-Ingenieur", "Europe/Berlin", true)
	m, err := interviewLetter(ctx, candidateFixture("Grace", "2026-11-24 13:00:00.000Z", "invited"), false, false)
	if err != nil {
		t.Fatal(err)
	}
	if m.Subject != "Ihr Interview für Support-Ingenieur bei Acme GmbH" {
		t.Errorf("subject: %q", m.Subject)
	}
	if m.To != "grace@example.com" || m.Candidate != "candidaterecord" {
		t.Errorf("addressed %q, about %q", m.To, m.Candidate)
	}
	for _, want := range []string{
		`<html lang="de" dir="ltr">`,
		`<body dir="ltr">`,
		"<p>Hallo Grace,</p>",
		"<p><strong>Acme GmbH</strong> lädt Sie zu einem Videointerview für die Stelle <strong>Support-Ingenieur</strong> ein.</p>",
		`<p><a href="` + testLink + `">` + testLink + `</a></p>`,
		"<p>Bitte senden Sie Ihre Antworten bis zum <strong>24. November 2026 um 14:00 Uhr CET (Europe/Berlin)</strong>.</p>",
		`<a href="` + testDataLink + `">` + testDataLink + `</a>`,
		"<p>Viel Erfolg!<br>Acme GmbH</p>",
		"Acme GmbH führt Videointerviews mit Screenroom durch.",
	} {
		if !strings.Contains(m.HTML, want) {
			t.Errorf("the HTML lacks %q:\n%s", want, m.HTML)
		}
	}
	for _, want := range []string{
		"Hallo Grace,\n\n",
		"Bitte senden Sie Ihre Antworten bis zum 24. November 2026 um 14:00 Uhr CET (Europe/Berlin).",
		testLink + "\n\n",
		testDataLink,
		"Viel Erfolg!\nAcme GmbH",
		"--\nAcme GmbH führt Videointerviews mit Screenroom durch.\n",
	} {
		if !strings.Contains(m.Text, want) {
			t.Errorf("the text lacks %q:\n%s", want, m.Text)
		}
	}
}

// Every e-mail a candidate receives, in every language: signed with the company's name, never by the product; the
// data-request link; the product named in the footer only; no English in another language; no argument left unfilled;
// right to left in Arabic.
func TestEveryCandidateLetterInEveryLanguage(t *testing.T) {
	candidate := candidateFixture("Grace", "2026-11-24 13:00:00.000Z", "started")
	englishLines := map[string]bool{}
	for _, m := range everyLetter(t, contextFixture("en", "Acme", "Support engineer", "", true), candidate) {
		for _, line := range strings.Split(m.Text, "\n") {
			if strings.Contains(line, " ") && !strings.Contains(line, "http") {
				englishLines[line] = true
			}
		}
	}
	for _, language := range platform.Languages {
		ctx := contextFixture(language, "Acme", "Support engineer", "Europe/Berlin", true)
		for name, m := range everyLetter(t, ctx, candidate) {
			where := language + " " + name
			if strings.Contains(m.HTML, "Screenroom team") || strings.Contains(m.Text, "Screenroom team") {
				t.Errorf("%s: signed by the product", where)
			}
			if !strings.Contains(m.HTML, "<br>Acme</p>") || !strings.Contains(m.Text, "\nAcme\n") {
				t.Errorf("%s: not signed by the company:\n%s", where, m.Text)
			}
			if !strings.Contains(m.HTML, `href="`+testDataLink+`"`) || !strings.Contains(m.Text, testDataLink) {
				t.Errorf("%s: no data-request link", where)
			}
			if name != "receipt" && !strings.HasPrefix(name, "decision") && !strings.Contains(m.HTML, `href="`+testLink+`"`) {
				t.Errorf("%s: no interview link", where)
			}
			if strings.Count(m.Text, "Screenroom") != 1 || strings.Count(tag.ReplaceAllString(m.HTML, ""), "Screenroom") != 1 {
				t.Errorf("%s: the product is named once, in the footer:\n%s", where, m.Text)
			}
			if strings.ContainsAny(m.Text+m.Subject, "{}") {
				t.Errorf("%s: an argument left unfilled:\n%s", where, m.Text)
			}
			if m.Subject == "" || !strings.Contains(m.Subject, "Support engineer") {
				t.Errorf("%s: subject %q", where, m.Subject)
			}
			wantDir := `<body dir="ltr">`
			if language == "ar" {
				wantDir = `<body dir="rtl">`
			}
			if !strings.Contains(m.HTML, wantDir) || !strings.Contains(m.HTML, `lang="`+language+`"`) {
				t.Errorf("%s: want %s and lang %s", where, wantDir, language)
			}
			if language != "en" {
				for _, line := range strings.Split(m.Text, "\n") {
					if englishLines[line] {
						t.Errorf("%s: an English line: %q", where, line)
					}
				}
			}
		}
	}
}

func TestTheFooterGoesWhenTheCompanyTurnsItOff(t *testing.T) {
	for _, language := range platform.Languages {
		ctx := contextFixture(language, "Acme", "Support engineer", "", false)
		for name, m := range everyLetter(t, ctx, candidateFixture("", "2026-11-24 13:00:00.000Z", "invited")) {
			if strings.Contains(m.HTML, "Screenroom") || strings.Contains(m.Text, "Screenroom") {
				t.Errorf("%s %s: the product named with the footer off", language, name)
			}
			if !strings.Contains(m.Text, "\nAcme\n") {
				t.Errorf("%s %s: still signed by the company", language, name)
			}
		}
	}
}

func TestLettersEscapeWhatManagersAndCandidatesTyped(t *testing.T) {
	ctx := contextFixture("fr", `O'Brien & <b>Sons</b>`, `R&D "lead" <img src=x onerror="alert(1)">`, "", true)
	for name, m := range everyLetter(t, ctx, candidateFixture(`<script>x</script>`, "", "invited")) {
		if strings.Contains(m.HTML, "<img") || strings.Contains(m.HTML, "<script") || strings.Contains(m.HTML, "<b>Sons") {
			t.Errorf("%s: unescaped markup:\n%s", name, m.HTML)
		}
		if !strings.Contains(m.HTML, "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;") {
			t.Errorf("%s: the job title is not escaped as the e-mails always did:\n%s", name, m.HTML)
		}
		if !strings.Contains(m.Text, `R&D "lead" <img src=x onerror="alert(1)">`) {
			t.Errorf("%s: the plain text carries the title as it is", name)
		}
	}
}

func TestTheInviteWithoutADeadlineSaysNone(t *testing.T) {
	m, err := interviewLetter(contextFixture("en", "Acme", "Engineer", "", true), candidateFixture("", "", "invited"), false, false)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(m.Text, "Please send your answers by") || !strings.HasPrefix(m.Text, "Hello,\n\n") {
		t.Errorf("text:\n%s", m.Text)
	}
}

func TestEnglishLettersKeepTheirWords(t *testing.T) {
	ctx := contextFixture("en", "mails company", "Support engineer", "", true)
	candidate := candidateFixture("", "2026-11-24 13:00:00.000Z", "started")
	letters := everyLetter(t, ctx, candidate)
	for name, want := range map[string][]string{
		"invite":         {"<p><strong>mails company</strong> invites you to a video interview for the <strong>Support engineer</strong> position.</p>", "<p>Answer the questions in your own time, on any device with a camera:</p>", "<p>Please send your answers by <strong>24 November 2026 at 13:00 UTC</strong>.</p>", "<p>If your connection drops, open the same link again: your interview resumes where you left it.</p>"},
		"resent":         {"<p>A reminder of your invitation:</p>"},
		"again":          {"<p>Your interview link for the <strong>Support engineer</strong> position at <strong>mails company</strong> has changed. This is your new link:</p>"},
		"reminder early": {"This is a friendly reminder that your video interview", "<p>Please send your answers by <strong>24 November 2026 at 13:00 UTC</strong>. After that, the link no longer accepts answers.</p>", "You have already answered some of the questions"},
		"reminder late":  {"closes in a few hours."},
		"receipt":        {"There is nothing else you need to do. The team at mails company will now review your answers.", "<p>Best wishes,<br>mails company</p>"},
	} {
		for _, text := range want {
			if !strings.Contains(letters[name].HTML, text) {
				t.Errorf("%s lacks %q:\n%s", name, text, letters[name].HTML)
			}
		}
	}
	for name, subject := range map[string]string{
		"invite":         "Your interview for Support engineer at mails company",
		"reminder early": "Reminder: your interview for Support engineer at mails company",
		"reminder late":  "Your interview for Support engineer at mails company closes in a few hours",
		"receipt":        "We received your answers for Support engineer at mails company",
	} {
		if letters[name].Subject != subject {
			t.Errorf("%s: subject %q, want %q", name, letters[name].Subject, subject)
		}
	}
}
