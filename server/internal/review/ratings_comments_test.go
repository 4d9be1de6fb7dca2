package review

import "testing"

// A comment is trimmed as JavaScript's trim did: the byte order mark goes, U+0085 stays.
func TestTrimJS(t *testing.T) {
	cases := map[string]string{
		" \t\n hello \r\n":           "hello",
		"\uFEFF\u00a0\u3000hi\u2028": "hi",
		"\u0085hi\u0085":             "\u0085hi\u0085",
		"\u2000\u200a":               "",
		"a b":                        "a b",
	}
	for in, want := range cases {
		if got := trimJS(in); got != want {
			t.Errorf("trimJS(%q) = %q, want %q", in, got, want)
		}
	}
}
