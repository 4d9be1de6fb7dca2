package metrics

import (
	"github.com/pocketbase/pocketbase/core"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
)

// registry holds this server's metrics only (not client_golang's global default registry, which a dependency could
// fill with metrics of its own).
var registry = prometheus.NewRegistry()

// Latency buckets from 5 ms to a minute: the reads sit under 20 ms, a whole-file answer of 150 MB takes tens of seconds.
var latencyBuckets = []float64{0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60}

var (
	httpRequests = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "screenroom_http_requests_total",
		Help: "Requests answered, by route (the registered path pattern), method and status code.",
	}, []string{"route", "method", "code"})

	httpDuration = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "screenroom_http_request_duration_seconds",
		Help:    "Time from a request's headers to the end of its answer, by route and method.",
		Buckets: latencyBuckets,
	}, []string{"route", "method"})

	uploadsInFlight = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "screenroom_uploads_in_flight",
		Help: "Candidates' uploads being received now: parts of takes and whole answers, by route.",
	}, []string{"route"})

	answersStored = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "screenroom_answers_stored_total",
		Help: "Answers stored (committed), by kind: video or text.",
	}, []string{"kind"})

	mailSent = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "screenroom_mail_sent_total",
		Help: "E-mails the mail queue handed to the mail server.",
	})

	mailFailures = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "screenroom_mail_send_failures_total",
		Help: "Attempts to send an e-mail that the mail server refused or that failed (each is retried until MAIL_QUEUE_MAX_ATTEMPTS).",
	})

	mailGivenUp = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "screenroom_mail_given_up_total",
		Help: "E-mails marked failed after their last attempt.",
	})

	webhookDelivered = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "screenroom_webhook_deliveries_total",
		Help: "Webhook deliveries the endpoint accepted (a 2xx).",
	})

	webhookFailures = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "screenroom_webhook_delivery_failures_total",
		Help: "Webhook attempts that failed (no answer, an error status, a refused address); most are retried.",
	})

	webhookGivenUp = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "screenroom_webhook_deliveries_given_up_total",
		Help: "Webhook deliveries marked failed: a day of retries passed, or no retry could succeed.",
	})
)

func init() {
	registry.MustRegister(
		collectors.NewGoCollector(),
		// screenroom_process_*: the server's own memory and CPU, apart from any other Go program scraped
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{Namespace: "screenroom"}),
		httpRequests, httpDuration, uploadsInFlight, answersStored,
		mailSent, mailFailures, mailGivenUp,
		webhookDelivered, webhookFailures, webhookGivenUp,
	)
	// every series known from the start, so a rate() over it has a zero to start from
	for _, kind := range []string{"video", "text"} {
		answersStored.WithLabelValues(kind)
	}
	for _, route := range uploadRoutes {
		uploadsInFlight.WithLabelValues(route)
	}
}

// MailAttempt records one attempt of the mail queue: sent, or failed (and then whether that was its last).
func MailAttempt(err error, gaveUp bool) {
	if err == nil {
		mailSent.Inc()
		return
	}
	mailFailures.Inc()
	if gaveUp {
		mailGivenUp.Inc()
	}
}

// WebhookAttempt records one attempt of the webhook sender: accepted, or failed (and then whether the delivery was
// given up).
func WebhookAttempt(succeeded, gaveUp bool) {
	if succeeded {
		webhookDelivered.Inc()
		return
	}
	webhookFailures.Inc()
	if gaveUp {
		webhookGivenUp.Inc()
	}
}

// registerAnswerHooks counts an answer once its kind record (the one holding the video or the text) is committed: a
// request refused inside its transaction rolls back and counts nothing, and every way in (the answers route, the
// records API, a batch) counts the same.
func registerAnswerHooks(app core.App) {
	for collection, kind := range map[string]string{"video_answers": "video", "text_answers": "text"} {
		counter := answersStored.WithLabelValues(kind)
		app.OnRecordAfterCreateSuccess(collection).BindFunc(func(e *core.RecordEvent) error {
			counter.Inc()
			return e.Next()
		})
	}
}
