package mail

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"screenroom/server/internal/platform"
)

// catalogKeys are a catalog file's keys in the order the file writes them.
func catalogKeys(t *testing.T, language string) []string {
	t.Helper()
	raw, err := localeFiles.ReadFile("locales/" + language + ".json")
	if err != nil {
		t.Fatal(err)
	}
	decoder := json.NewDecoder(bytes.NewReader(raw))
	if _, err := decoder.Token(); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for decoder.More() {
		key, err := decoder.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, key.(string))
		var value string
		if err := decoder.Decode(&value); err != nil {
			t.Fatalf("%s %v: every message is a string: %v", language, key, err)
		}
	}
	return keys
}

func sortedArgs(m message) []string {
	args := slices.Clone(m.args)
	slices.Sort(args)
	return slices.Compact(args)
}

// Every language has exactly English's keys, sorted, each message with English's arguments and only simple ones
// (parseMessage refuses any other, and a catalog that does not parse stops the package from loading).
func TestEveryCatalogHasEnglishKeysSortedWithItsArguments(t *testing.T) {
	english := locales["en"]
	wantKeys := catalogKeys(t, "en")
	if !slices.IsSorted(wantKeys) {
		t.Errorf("en.json's keys are not sorted: %v", wantKeys)
	}
	for _, language := range platform.Languages {
		keys := catalogKeys(t, language)
		if !slices.IsSorted(keys) {
			t.Errorf("%s.json's keys are not sorted", language)
		}
		if !slices.Equal(keys, wantKeys) {
			t.Errorf("%s.json's keys differ from English's:\n got %v\nwant %v", language, keys, wantKeys)
		}
		locale := locales[language]
		for key, m := range locale.messages {
			if want := english.messages[key]; !slices.Equal(sortedArgs(m), sortedArgs(want)) {
				t.Errorf("%s %s: arguments %v, English has %v", language, key, m.args, want.args)
			}
			if strings.TrimSpace(strings.Join(m.texts, "")) == "" {
				t.Errorf("%s %s: an empty message", language, key)
			}
		}
	}
}

func TestParseMessage(t *testing.T) {
	for text, want := range map[string]message{
		"Hello {name},":                {texts: []string{"Hello ", ","}, args: []string{"name"}},
		"{company} invites you":        {texts: []string{"", " invites you"}, args: []string{"company"}},
		"l'entretien, aujourd'hui":     {texts: []string{"l'entretien, aujourd'hui"}},
		"it''s {a}{b}":                 {texts: []string{"it's ", "", ""}, args: []string{"a", "b"}},
		"a '{literal}' brace":          {texts: []string{"a {literal} brace"}},
		"Numbers {n1} and {snake_arg}": {texts: []string{"Numbers ", " and ", ""}, args: []string{"n1", "snake_arg"}},
	} {
		got, err := parseMessage(text)
		if err != nil || !slices.Equal(got.texts, want.texts) || !slices.Equal(got.args, want.args) {
			t.Errorf("parseMessage(%q) = %+v, %v; want %+v", text, got, err, want)
		}
	}
	for _, text := range []string{
		"{count, plural, one {# minute} other {# minutes}}",
		"{kind, select, video {a video} other {a text}}",
		"{when, date, long}",
		"an {unclosed",
		"a stray } brace",
		"{}",
		"{1st}",
	} {
		if _, err := parseMessage(text); err == nil {
			t.Errorf("parseMessage(%q) accepted it: the Go renderer takes simple arguments only", text)
		}
	}
}

func TestSayEscapesTheMessageAndPutsArgumentsInAsGiven(t *testing.T) {
	en := LocaleFor("en")
	said := en.Say("interview.invite", map[string]Value{"company": Strong(`O'Brien & <Sons>`), "job": Plain("R&D")})
	if said.Text != "O'Brien & <Sons> invites you to a video interview for the R&D position." {
		t.Errorf("text: %q", said.Text)
	}
	if want := "<strong>O&#39;Brien &amp; &lt;Sons&gt;</strong> invites you to a video interview for the R&amp;D position."; string(said.HTML) != want {
		t.Errorf("html: %q, want %q", said.HTML, want)
	}
	link := Link(`https://app.example.com/candidates/k"x/data`)
	if want := `<a href="https://app.example.com/candidates/k&#34;x/data">https://app.example.com/candidates/k&#34;x/data</a>`; string(link.HTML) != want {
		t.Errorf("link: %q", link.HTML)
	}
	// an argument left out stays visible rather than vanishing
	if got := en.Text("common.helloName", nil); got != "Hello {name}," {
		t.Errorf("missing argument: %q", got)
	}
	// an unknown language is English; a key no catalog has is its own name
	if LocaleFor("xx").Language != "en" || LocaleFor("").Language != "en" {
		t.Error("an unknown or empty language reads as English")
	}
	if got := LocaleFor("de").Text("no.such.key", nil); got != "no.such.key" {
		t.Errorf("unknown key: %q", got)
	}
}

func zone(t *testing.T, name string) *time.Location {
	t.Helper()
	location, err := time.LoadLocation(name)
	if err != nil {
		t.Fatal(err)
	}
	return location
}

// Dates in e-mails: the company's zone, with its name, in the candidate's language (its month names, its order).
func TestDateTimeInTheCompanysZoneAndTheCandidatesLanguage(t *testing.T) {
	winter := time.Date(2026, 11, 24, 13, 0, 0, 0, time.UTC)
	summer := time.Date(2026, 7, 3, 22, 30, 0, 0, time.UTC)
	for _, c := range []struct {
		language, zone string
		at             time.Time
		want           string
	}{
		{"en", "UTC", winter, "24 November 2026 at 13:00 UTC"},
		{"en", "", winter, "24 November 2026 at 13:00 UTC"},
		{"en", "Europe/Berlin", winter, "24 November 2026 at 14:00 CET (Europe/Berlin)"},
		{"de", "Europe/Berlin", winter, "24. November 2026 um 14:00 Uhr CET (Europe/Berlin)"},
		{"de", "Europe/Berlin", summer, "4. Juli 2026 um 00:30 Uhr CEST (Europe/Berlin)"},
		{"fr", "Europe/Paris", summer, "4 juillet 2026 à 00:30 CEST (Europe/Paris)"},
		{"es", "Europe/Madrid", winter, "24 de noviembre de 2026 a las 14:00 CET (Europe/Madrid)"},
		{"nl", "Europe/Amsterdam", winter, "24 november 2026 om 14:00 CET (Europe/Amsterdam)"},
		{"pt", "America/Sao_Paulo", winter, "24 de novembro de 2026, às 10:00 UTC-03 (America/Sao_Paulo)"},
		{"it", "Europe/Rome", summer, "4 luglio 2026 alle 00:30 CEST (Europe/Rome)"},
		{"pl", "Europe/Warsaw", winter, "24 listopada 2026 o godz. 14:00 CET (Europe/Warsaw)"},
		{"ar", "Asia/Dubai", winter, "24 نوفمبر 2026 الساعة 17:00 UTC+04 (Asia/Dubai)"},
		{"en", "America/Los_Angeles", winter, "24 November 2026 at 05:00 PST (America/Los_Angeles)"},
		{"en", "America/Los_Angeles", time.Date(2027, 1, 1, 3, 0, 0, 0, time.UTC), "31 December 2026 at 19:00 PST (America/Los_Angeles)"},
		{"en", "Asia/Kathmandu", winter, "24 November 2026 at 18:45 UTC+05:45 (Asia/Kathmandu)"},
		{"en", "Asia/Tokyo", winter, "24 November 2026 at 22:00 JST (Asia/Tokyo)"},
		{"en", "Not/A_Zone", winter, "24 November 2026 at 13:00 UTC"},
	} {
		got := LocaleFor(c.language).DateTime(c.at, platform.Zone(c.zone)).Text
		if got != c.want {
			t.Errorf("%s in %q: %q, want %q", c.language, c.zone, got, c.want)
		}
	}
	// in Arabic the zone's Latin name is isolated, so the parentheses do not turn around
	html := string(LocaleFor("ar").DateTime(winter, zone(t, "Asia/Dubai")).HTML)
	if !strings.Contains(html, `<bdi dir="ltr">UTC+04 (Asia/Dubai)</bdi>`) {
		t.Errorf("ar html: %s", html)
	}
	if html := string(LocaleFor("de").DateTime(winter, zone(t, "Europe/Berlin")).HTML); strings.Contains(html, "<bdi") {
		t.Errorf("de html: %s", html)
	}
}

// The month names are each language's own, January to December, and Polish ones take the form of a date
// (genitive).
func TestMonthNames(t *testing.T) {
	for language, want := range map[string]string{
		"en": "January", "de": "März", "fr": "août", "pl": "stycznia", "ar": "ديسمبر",
	} {
		found := false
		for month := 1; month <= 12; month++ {
			at := time.Date(2026, time.Month(month), 10, 12, 0, 0, 0, time.UTC)
			if strings.Contains(LocaleFor(language).DateTime(at, time.UTC).Text, " "+want+" ") {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: no date says %q", language, want)
		}
	}
}
