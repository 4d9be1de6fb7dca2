package webhooks

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// A redirect is one attempt, final, and says where it pointed (endpoint_routes.go, webhooks.go):
// `go test -run 'TestRedirect|TestPrintable|TestSignatures|TestParseHours' ./internal/webhooks`.
func TestRedirectFailsAtOnceWithWhereItPointed(t *testing.T) {
	for _, c := range []struct {
		status   int
		location string
		want     string
	}{
		{301, "https://new.example.com/hook", "The endpoint answered 301, a redirect to https://new.example.com/hook."},
		{308, "/v2/hook?x=1", "The endpoint answered 308, a redirect to http://127.0.0.1"},
		{302, "", "The endpoint answered 302, a redirect. Redirects are not followed"},
	} {
		requests := 0
		server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			requests++
			if c.location != "" {
				w.Header().Set("Location", c.location)
			}
			w.WriteHeader(c.status)
		}))
		s := &webhookSender{allowPrivate: true, timeout: 5 * time.Second}
		s.client = &http.Client{Timeout: s.timeout, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		secret := "whsec_" + strings.Repeat("A", 32)
		o := s.post(context.Background(), deliveryRow{Id: "d1", URL: server.URL + "/hook", Secret: secret, Payload: `{}`, Enabled: true})
		server.Close()
		if !o.final || o.status != c.status || !strings.HasPrefix(o.err, c.want) {
			t.Errorf("%d %q: got final=%v status=%d err=%q; want final, %d, %q…", c.status, c.location, o.final, o.status, o.err, c.status, c.want)
		}
		if !strings.Contains(o.err, "not retried") {
			t.Errorf("%d: the reason does not say it is not retried: %q", c.status, o.err)
		}
		if requests != 1 {
			t.Errorf("%d: %d requests, want 1 (no redirect followed)", c.status, requests)
		}
	}
}

func TestPrintableDropsControlCharactersAndCuts(t *testing.T) {
	if got := printable("https://x.example/\r\nSet-Cookie: a=b\x00", 300); got != "https://x.example/Set-Cookie: a=b" {
		t.Errorf("got %q", got)
	}
	got := printable(strings.Repeat("é", 10), 5)
	if got != "éé…" {
		t.Errorf("cut at a character boundary: got %q", got)
	}
}

func TestSignaturesListTheReplacedSecretWhileItStillSigns(t *testing.T) {
	s := &webhookSender{}
	current := "whsec_" + strings.Repeat("A", 32)
	previous := "whsec_" + strings.Repeat("B", 32)
	key, _ := decodeSecret(current)
	oldKey, _ := decodeSecret(previous)
	body := []byte(`{"type":"webhook.test"}`)
	mine := "v1," + signWebhook(key, "d1", "1700000000", body)
	theirs := "v1," + signWebhook(oldKey, "d1", "1700000000", body)

	later := time.Now().Add(time.Hour).UTC().Format("2006-01-02 15:04:05.000Z")
	got := s.signatures(key, deliveryRow{Id: "d1", PrevSecret: previous, PrevSecretEnd: later}, "1700000000", body)
	if got != mine+" "+theirs {
		t.Errorf("within the overlap: got %q, want both, the new one first", got)
	}
	earlier := time.Now().Add(-time.Second).UTC().Format("2006-01-02 15:04:05.000Z")
	for _, row := range []deliveryRow{{Id: "d1", PrevSecret: previous, PrevSecretEnd: earlier}, {Id: "d1"}, {Id: "d1", PrevSecret: previous}} {
		if got := s.signatures(key, row, "1700000000", body); got != mine {
			t.Errorf("%+v: got %q, want the new secret's alone", row, got)
		}
	}
}

func TestParseHours(t *testing.T) {
	for raw, want := range map[string]time.Duration{"120": 120 * time.Hour, " 0.5 ": 30 * time.Minute, "0": 0} {
		if got, ok := parseHours(raw, 0, 720); !ok || got != want {
			t.Errorf("%q: got %v %v, want %v", raw, got, ok, want)
		}
	}
	for _, raw := range []string{"", "-1", "721", "five", "NaN", "1e400"} {
		if _, ok := parseHours(raw, 0, 720); ok {
			t.Errorf("%q accepted", raw)
		}
	}
	if _, ok := parseHours("0", 1e-9, 10); ok {
		t.Error("0 accepted where more than 0 is required")
	}
}
