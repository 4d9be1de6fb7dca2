package review

import (
	"math"
	"testing"
	"time"

	"github.com/pocketbase/pocketbase/core"
)

func TestJSNumber(t *testing.T) {
	for _, c := range []struct {
		value any
		want  float64
	}{
		{float64(7), 7}, {"7", 7}, {" 14 ", 14}, {"1e1", 10}, {"0x1E", 30}, {true, 1}, {false, 0},
		{[]any{float64(30)}, 30}, {[]any{"7"}, 7}, {[]any{}, 0}, {"", 0}, {"14.5", 14.5},
	} {
		if got := jsNumber(c.value); got != c.want {
			t.Errorf("jsNumber(%#v) = %v, want %v", c.value, got, c.want)
		}
	}
	for _, value := range []any{"forever", "0x", "-0x1E", "1_0", "inf", "NaN", "0x1p4", []any{1.0, 2.0}, map[string]any{}} {
		if got := jsNumber(value); !math.IsNaN(got) {
			t.Errorf("jsNumber(%#v) = %v, want NaN", value, got)
		}
	}
}

func TestEncodeURIComponent(t *testing.T) {
	if got, want := encodeURIComponent("a b/c?d=e&f+g!~*'()é.png"), "a%20b%2Fc%3Fd%3De%26f%2Bg!~*'()%C3%A9.png"; got != want {
		t.Errorf("encodeURIComponent = %q, want %q", got, want)
	}
}

func TestLinkRefusal(t *testing.T) {
	companies := core.NewBaseCollection("companies")
	companies.Fields.Add(&core.RelationField{Name: "managers", MaxSelect: 99})
	company := core.NewRecord(companies)
	company.Set("managers", []string{"maker"})
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	future, past := "2026-01-02 03:04:06.000Z", "2026-01-02 03:04:05.000Z"
	for _, c := range []struct {
		revokedAt, expiresAt, maker string
		want                        string
	}{
		{"", future, "maker", ""},
		{"", past, "maker", shareLinkExpired},
		{"", "", "maker", shareLinkExpired},
		{past, future, "maker", shareLinkRevoked},
		{past, past, "maker", shareLinkRevoked},
		{"", future, "someone else", shareLinkRevoked},
	} {
		got := ""
		if err := linkRefusal(c.revokedAt, c.expiresAt, c.maker, company, now); err != nil {
			got = err.Message
		}
		if got != c.want {
			t.Errorf("linkRefusal(%q, %q, %q) = %q, want %q", c.revokedAt, c.expiresAt, c.maker, got, c.want)
		}
	}
	if err := linkRefusal("", future, "maker", nil, now); err == nil || err.Message != shareLinkRevoked {
		t.Errorf("a link without its company opens")
	}
}
