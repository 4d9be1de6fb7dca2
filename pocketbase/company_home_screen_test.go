package main

import (
	"strings"
	"testing"
	"time"
)

// companyHomeMarkup: the screen's markup, view and template together as the page makes it.
func companyHomeMarkup(companyID, companyName string, user companyHomeUser, jobs, counts []byte, location *time.Location) (string, error) {
	view, err := companyHomeViewOf(companyID, companyName, user, jobs, counts, location)
	if err != nil {
		return "", err
	}
	return renderCompanyHome(view)
}

func TestCompanyHomeScreenRows(t *testing.T) {
	jobs := []byte(`[{"id":"job2","title":"<b>Lead</b> & \"co\"","created":"2026-11-28 20:05:00.000Z","archived":false,"closedAt":"2026-11-28 21:00:00.000Z"},` +
		`{"id":"job1","title":"Old","created":"2026-01-02 09:00:00.000Z","archived":true,"closedAt":""},` +
		`{"id":"job0","title":"Support","created":"2026-07-04 15:30:00.000Z","archived":false,"closedAt":""}]`)
	counts := []byte(`{"jobs":{"job0":{"total":12,"invited":7,"started":3,"completed":2}}}`)
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	markup, err := companyHomeMarkup("c1", "Acme <Hiring>", companyHomeUser{First: "ada", Last: "Lovelace", Switcher: true}, jobs, counts, berlin)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		// escaped, never markup
		`<th scope="row" class="rt-TableCell rt-TableRowHeaderCell">&lt;b&gt;Lead&lt;/b&gt; &amp; &#34;co&#34;</th>`,
		`aria-label="Edit &lt;b&gt;Lead&lt;/b&gt; &amp; &#34;co&#34;"`,
		`<span style="pointer-events: none;">Acme &lt;Hiring&gt;</span>`,
		// the closed job's badge, a job without candidates at zero, the counts of the other, dates in Berlin
		`rt-high-contrast">Closed</span>`,
		`<td class="rt-TableCell">0</td><td class="rt-TableCell">0</td><td class="rt-TableCell">0</td><td class="rt-TableCell">Nov 28, 2026, 9:05 PM</td>`,
		`<td class="rt-TableCell">7</td><td class="rt-TableCell">3</td><td class="rt-TableCell">2</td><td class="rt-TableCell">Jul 4, 2026, 5:30 PM</td>`,
		`href="/companies/c1/jobs/job0/edit"`,
		`<span class="rt-AvatarFallback rt-two-letters">AL</span>`,
		`>ada Lovelace</span>`,
	} {
		if !strings.Contains(markup, want) {
			t.Errorf("the markup lacks %s", want)
		}
	}
	if strings.Contains(markup, ">Old<") {
		t.Error("an archived job is listed on a first visit")
	}
	if strings.Index(markup, "Lead") > strings.Index(markup, "Support") {
		t.Error("the rows are not in the list's order")
	}

	// no switcher without a primary company, an avatar's empty fallback, an empty list's link
	markup, err = companyHomeMarkup("c1", "Acme", companyHomeUser{Last: "Solo", HasAvatar: true}, []byte(`[]`), []byte(`{"jobs":{}}`), time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`<span class="rt-AvatarFallback"></span>`, `No jobs yet. <a`, `>Add your first job</a>`} {
		if !strings.Contains(markup, want) {
			t.Errorf("the markup lacks %s", want)
		}
	}
	if strings.Contains(markup, `aria-label="Company"`) || strings.Contains(markup, "<table") {
		t.Error("a switcher or a table where there should be none")
	}
}

func TestCompanyHomeScreenOneInitial(t *testing.T) {
	markup, err := companyHomeMarkup("c1", "", companyHomeUser{Last: "lovelace"}, []byte(`[]`), []byte(`{"jobs":{}}`), time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(markup, `<span class="rt-AvatarFallback rt-one-letter">L</span>`) {
		t.Error("one initial is not written as Radix writes it")
	}
}
