// Package metrics: the server's Prometheus endpoint (docs/operations.md, "Metrics"). What it counts: requests and
// their latency per route, answers stored, uploads in flight, the media worker's queue and its oldest job, the mail
// queue and its failures, webhook deliveries and their failures, and the replication lag read from Litestream's own
// endpoint. It is served on a listener of its own (METRICS_LISTEN), never on PocketBase's port, so the reverse proxy
// in front of the app never publishes it; off the loopback it needs METRICS_TOKEN.
//
// The package sits below every domain but platform and replication: mail and webhooks call its recording functions;
// it imports none of them.
package metrics

import "github.com/pocketbase/pocketbase/core"

// Register binds the package's middleware, hooks and listener to app.
func Register(app core.App) {
	registerRequestMetrics(app)
	registerAnswerHooks(app)
	registry.MustRegister(newQueueCollector(app))
	registerReplicationCollector(app)
	registerEndpoint(app)
}
