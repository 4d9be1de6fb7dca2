package review

import (
	"testing"
	"time"

	"github.com/pocketbase/pocketbase/core"
)

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
