package platform

import (
	"math"
	"testing"
)

func TestJSNumber(t *testing.T) {
	for _, c := range []struct {
		value any
		want  float64
	}{
		{float64(7), 7}, {"7", 7}, {" 14 ", 14}, {"1e1", 10}, {"0x1E", 30}, {true, 1}, {false, 0}, {nil, 0},
		{[]any{float64(30)}, 30}, {[]any{"7"}, 7}, {[]any{}, 0}, {"", 0}, {"14.5", 14.5}, {"-60000", -60000},
	} {
		if got := JSNumber(c.value); got != c.want {
			t.Errorf("JSNumber(%#v) = %v, want %v", c.value, got, c.want)
		}
	}
	for _, value := range []any{"forever", "0x", "-0x1E", "1_0", "inf", "NaN", "0x1p4", "soon", []any{1.0, 2.0}, map[string]any{}} {
		if got := JSNumber(value); !math.IsNaN(got) {
			t.Errorf("JSNumber(%#v) = %v, want NaN", value, got)
		}
	}
}

func TestJSStringAndText(t *testing.T) {
	for _, c := range []struct {
		value     any
		str, text string
	}{
		{nil, "", ""}, {"", "", ""}, {"a", "a", "a"}, {float64(7), "7", "7"}, {float64(0), "0", ""}, {1e21, "1e+21", "1e+21"},
		{true, "true", "true"}, {false, "false", ""}, {[]any{1.0, "b"}, "1,b", "1,b"}, {map[string]any{}, "[object Object]", "[object Object]"},
	} {
		if got := JSString(c.value); got != c.str {
			t.Errorf("JSString(%#v) = %q, want %q", c.value, got, c.str)
		}
		if got := JSText(c.value); got != c.text {
			t.Errorf("JSText(%#v) = %q, want %q", c.value, got, c.text)
		}
	}
}

func TestJSTrimLengthAndURIComponent(t *testing.T) {
	if got := JSTrim("\ufeff\u00a0 x \u2028\u0085"); got != "x \u2028\u0085" {
		t.Errorf("JSTrim = %q", got)
	}
	if got := JSLength("a😀"); got != 3 {
		t.Errorf("JSLength = %d, want 3", got)
	}
	if got := EncodeURIComponent("o'brien+x@ex ample.com/ü"); got != "o'brien%2Bx%40ex%20ample.com%2F%C3%BC" {
		t.Errorf("EncodeURIComponent = %q", got)
	}
}

// A comment is trimmed as JavaScript's trim did: the byte order mark goes, U+0085 stays.
func TestJSTrimAsACommentIsTrimmed(t *testing.T) {
	cases := map[string]string{
		" \t\n hello \r\n":           "hello",
		"\uFEFF\u00a0\u3000hi\u2028": "hi",
		"\u0085hi\u0085":             "\u0085hi\u0085",
		"\u2000\u200a":               "",
		"a b":                        "a b",
	}
	for in, want := range cases {
		if got := JSTrim(in); got != want {
			t.Errorf("JSTrim(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestEncodeURIComponentAsJavaScript(t *testing.T) {
	if got, want := EncodeURIComponent("a b/c?d=e&f+g!~*'()é.png"), "a%20b%2Fc%3Fd%3De%26f%2Bg!~*'()%C3%A9.png"; got != want {
		t.Errorf("EncodeURIComponent = %q, want %q", got, want)
	}
}
