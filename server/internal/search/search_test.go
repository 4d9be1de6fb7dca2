package search

import (
	"reflect"
	"strings"
	"testing"
)

// The search's syntax (search.go): `go test -run TestSearch .`
func TestSearchQueryWordsAndPhrases(t *testing.T) {
	cases := []struct {
		raw  string
		want [][]string
	}{
		{"", nil},
		{`  ,;!? `, nil},
		{"Hiring  Manager", [][]string{{"hiring"}, {"manager"}}},
		{`team "customer support" lead`, [][]string{{"customer", "support"}, {"team"}, {"lead"}}},
		{`"unclosed phrase here`, [][]string{{"unclosed", "phrase", "here"}}},
		{`word word "word"`, [][]string{{"word"}}},
		{`"" empty`, [][]string{{"empty"}}},
		// FTS5's operators are plain words; its syntax characters are separators
		{`a OR b NOT c* ^d col:e NEAR(f g)`, [][]string{{"a"}, {"or"}, {"b"}, {"not"}, {"c"}, {"d"}, {"col"}, {"e"}, {"near"}, {"f"}, {"g"}}},
		{"café—naïve…résumé", [][]string{{"café"}, {"naïve"}, {"résumé"}}},
	}
	for _, c := range cases {
		if got := parseSearchQuery(c.raw); !reflect.DeepEqual(got, c.want) {
			t.Errorf("parseSearchQuery(%q) = %q, want %q", c.raw, got, c.want)
		}
	}
}

func TestSearchQueryLimits(t *testing.T) {
	var many []string
	for i := 0; i < 20; i++ {
		many = append(many, strings.Repeat(string(rune('a'+i)), 3))
	}
	if got := parseSearchQuery(strings.Join(many, " ")); len(got) != searchMaxTerms {
		t.Errorf("%d terms kept, want %d", len(got), searchMaxTerms)
	}
	// 200 characters: a word that crosses the limit is cut there
	long := strings.Repeat("x", 195) + " abcdefgh"
	if got := parseSearchQuery(long); !reflect.DeepEqual(got[1], []string{"abcd"}) {
		t.Errorf("the last term is %q, want the 4 letters within 200 characters", got[1])
	}
	// counted in UTF-16 code units, as the browser counts them: an emoji is two
	emoji := strings.Repeat("😀", 99) + " abc"
	if got := parseSearchQuery(emoji); !reflect.DeepEqual(got, [][]string{{strings.Repeat("😀", 99)}, {"a"}}) {
		t.Errorf("parseSearchQuery(99 emoji + abc) = %q", got)
	}
}

func TestSearchMatchQuotesEveryTerm(t *testing.T) {
	got := searchMatch(parseSearchQuery(`say "NOT this" OR "that)"`))
	if want := `"not this" AND "that" AND "say" AND "or"`; got != want {
		t.Errorf("searchMatch = %s, want %s", got, want)
	}
}

func TestSearchSegmentStart(t *testing.T) {
	segments := `[{"start":0,"end":2,"text":"Hello there."},{"start":"3","text":"hiring word"},null,
		{"start":4.5,"end":6,"text":"We were hiring engineers"},{"start":9,"end":11,"text":"Customer support"}]`
	at := func(raw string) any {
		if start := searchSegmentStart(segments, parseSearchQuery(raw)); start != nil {
			return *start
		}
		return nil
	}
	for raw, want := range map[string]any{
		"hiring":             4.5, // the first segment with a numeric start that holds the word
		"engineer":           4.5, // another form: the same first letters ("engineers")
		"support":            9.0,
		`"customer support"`: 9.0, // a phrase starts at its first word
		"absent":             nil,
	} {
		if got := at(raw); got != want {
			t.Errorf("segment start of %q = %v, want %v", raw, got, want)
		}
	}
	if searchSegmentStart("", [][]string{{"x"}}) != nil || searchSegmentStart("not json", [][]string{{"x"}}) != nil {
		t.Error("no segments: no start")
	}
}
