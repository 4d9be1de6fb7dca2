package mail

import (
	"strings"
	"testing"

	"screenroom/server/internal/platform"
)

// The default texts of the decision messages keep the placeholders a company's own text may use, in every language,
// and differ from English outside English (scripts/translations.test.ts checks the catalogs as a whole).
func TestDefaultDecisionTextsInEveryLanguage(t *testing.T) {
	englishSubject, englishBody := DefaultDecisionText("en", "advance")
	for _, language := range platform.Languages {
		for _, kind := range []string{"advance", "reject"} {
			subject, body := DefaultDecisionText(language, kind)
			where := language + " " + kind
			for _, placeholder := range []string{"{job}", "{company}"} {
				if !strings.Contains(subject, placeholder) || !strings.Contains(body, placeholder) {
					t.Errorf("%s: %s missing from %q / %q", where, placeholder, subject, body)
				}
			}
			if !strings.Contains(body, "\n\n") {
				t.Errorf("%s: the body is one paragraph: %q", where, body)
			}
			if language != "en" && kind == "advance" && (subject == englishSubject || body == englishBody) {
				t.Errorf("%s: English words", where)
			}
		}
	}
	if subject, _ := DefaultDecisionText("xx", "reject"); subject != "Your application for {job} at {company}" {
		t.Errorf("an unknown language reads English: %q", subject)
	}
}

func TestADecisionLetterKeepsTheCompanysParagraphsAndEscapesThem(t *testing.T) {
	ctx := contextFixture("en", "Acme", "Engineer", "", true)
	m, err := decisionLetter(ctx, candidateFixture("Grace", "", "completed"), "Hello", "First <b>line</b>\nsame paragraph\n\n\n\nSecond & last\r\n\r\nThird")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"<p>Hello Grace,</p><p>First &lt;b&gt;line&lt;/b&gt;<br>same paragraph</p><p>Second &amp; last</p><p>Third</p>",
		"<p>Best wishes,<br>Acme</p>",
		`href="` + testDataLink + `"`,
	} {
		if !strings.Contains(m.HTML, want) {
			t.Errorf("the HTML lacks %q:\n%s", want, m.HTML)
		}
	}
	if !strings.HasPrefix(m.Text, "Hello Grace,\n\nFirst <b>line</b>\nsame paragraph\n\nSecond & last\n\nThird\n\n") {
		t.Errorf("text:\n%s", m.Text)
	}
	if m.Subject != "Hello" || m.To != "grace@example.com" || m.Candidate != "candidaterecord" {
		t.Errorf("subject %q to %q about %q", m.Subject, m.To, m.Candidate)
	}
}
