package metrics

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

const goodToken = "0123456789abcdef0123456789abcdef"

func TestCheckEndpoint(t *testing.T) {
	for _, c := range []struct {
		listen, token string
		refused       string // part of the refusal, "" for accepted
	}{
		{"127.0.0.1:9464", "", ""},
		{"[::1]:9464", "", ""},
		{"127.0.0.2:9464", "", ""},
		{"0.0.0.0:9464", "", "set METRICS_TOKEN"},
		{":9464", "", "set METRICS_TOKEN"},
		{"localhost:9464", "", "set METRICS_TOKEN"},
		{"192.0.2.10:9464", "", "set METRICS_TOKEN"},
		{"0.0.0.0:9464", goodToken, ""},
		{"127.0.0.1:9464", "short", "at least 32 characters"},
		{"127.0.0.1", "", "must be host:port"},
		{"", "", "must be host:port"},
	} {
		err := CheckEndpoint(EndpointConfig{Listen: c.listen, Token: c.token})
		switch {
		case c.refused == "" && err != nil:
			t.Errorf("%q with token %q: refused (%v), want accepted", c.listen, c.token, err)
		case c.refused != "" && (err == nil || !strings.Contains(err.Error(), c.refused)):
			t.Errorf("%q with token %q: got %v, want a refusal saying %q", c.listen, c.token, err, c.refused)
		}
	}
}

func scrape(t *testing.T, h http.Handler, header string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, "/metrics", nil)
	if header != "" {
		req.Header.Set("Authorization", header)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

func TestHandlerToken(t *testing.T) {
	h := Handler(goodToken)
	for _, header := range []string{"", "Bearer", "Bearer ", "Bearer wrong", "Bearer " + goodToken + "x", "Bearer " + goodToken[:31], "Basic " + goodToken, "bearer" + goodToken, goodToken} {
		if rec := scrape(t, h, header); rec.Code != http.StatusUnauthorized || strings.Contains(rec.Body.String(), "screenroom_") {
			t.Errorf("Authorization %q: %d, want 401 with no figures", header, rec.Code)
		}
	}
	// a token in the query string is not one: it would end up in logs
	req := httptest.NewRequest(http.MethodGet, "/metrics?token="+goodToken, nil)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusUnauthorized {
		t.Errorf("token in the query: %d, want 401", rec.Code)
	}
	if rec := scrape(t, h, "Bearer "+goodToken); rec.Code != http.StatusOK {
		t.Fatalf("the right token: %d, want 200", rec.Code)
	}
	req = httptest.NewRequest(http.MethodPost, "/metrics", nil)
	req.Header.Set("Authorization", "Bearer "+goodToken)
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusMethodNotAllowed {
		t.Errorf("POST: %d, want 405", rec.Code)
	}
	req = httptest.NewRequest(http.MethodGet, "/", nil)
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusNotFound {
		t.Errorf("GET /: %d, want 404", rec.Code)
	}
}

// families parses an answer of the endpoint with Prometheus's own text parser.
func families(t *testing.T, h http.Handler) map[string]*dto.MetricFamily {
	t.Helper()
	rec := scrape(t, h, "")
	if rec.Code != http.StatusOK {
		t.Fatalf("scrape: %d %s", rec.Code, rec.Body.String())
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	parsed, err := parser.TextToMetricFamilies(strings.NewReader(rec.Body.String()))
	if err != nil {
		t.Fatalf("the endpoint's text does not parse: %v", err)
	}
	return parsed
}

func counterValue(t *testing.T, fams map[string]*dto.MetricFamily, name string) float64 {
	t.Helper()
	fam, ok := fams[name]
	if !ok || len(fam.Metric) != 1 {
		t.Fatalf("%s: not exposed as one series", name)
	}
	return fam.Metric[0].GetCounter().GetValue()
}

func TestMailAndWebhookCounters(t *testing.T) {
	h := Handler("")
	before := families(t, h)
	MailAttempt(nil, false)
	MailAttempt(nil, false)
	MailAttempt(http.ErrHandlerTimeout, false)
	MailAttempt(http.ErrHandlerTimeout, true)
	WebhookAttempt(true, false)
	WebhookAttempt(false, false)
	WebhookAttempt(false, true)
	after := families(t, h)
	for name, want := range map[string]float64{
		"screenroom_mail_sent_total":                   2,
		"screenroom_mail_send_failures_total":          2,
		"screenroom_mail_given_up_total":               1,
		"screenroom_webhook_deliveries_total":          1,
		"screenroom_webhook_delivery_failures_total":   2,
		"screenroom_webhook_deliveries_given_up_total": 1,
	} {
		if got := counterValue(t, after, name) - counterValue(t, before, name); got != want {
			t.Errorf("%s moved by %v, want %v", name, got, want)
		}
	}
}

func TestRouteOf(t *testing.T) {
	for pattern, want := range map[string]string{
		"GET /api/collections/{collection}/records":         "/api/collections/{collection}/records",
		"PUT /api/screenroom/takes/{takeId}/parts/{offset}": "/api/screenroom/takes/{takeId}/parts/{offset}",
		"/": otherRoute,
		"":  otherRoute,
	} {
		r := httptest.NewRequest(http.MethodGet, "/x", nil)
		r.Pattern = pattern
		if got := routeOf(r); got != want {
			t.Errorf("routeOf(%q) = %q, want %q", pattern, got, want)
		}
	}
	if methodOf("PROPFIND") != "OTHER" || methodOf("PATCH") != "PATCH" {
		t.Error("methodOf keeps only HTTP's methods")
	}
}
