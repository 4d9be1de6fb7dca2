package metrics

import (
	"context"

	"github.com/pocketbase/pocketbase/core"
	"github.com/prometheus/client_golang/prometheus"

	"screenroom/server/internal/platform"
	"screenroom/server/internal/replication"
)

// The replication lag, asked of Litestream at each scrape (replication.Lag, through its control socket: its own
// Prometheus endpoint has no replica position). Exposed only where replication is on (REPLICA_URL): a server without
// it has no lag to report, and an alert on a missing series would be noise.
var (
	replicationLag = prometheus.NewDesc("screenroom_replication_lag_seconds",
		"Seconds since Litestream last had every change of the database on the replica; +Inf when nothing reached it since Litestream started.",
		[]string{"database"}, nil)
	replicationUp = prometheus.NewDesc("screenroom_replication_up",
		"1 when Litestream answers on its control socket, 0 when it does not (nothing is being replicated).", nil, nil)
)

type replicationCollector struct {
	app core.App
}

func (c *replicationCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- replicationLag
	ch <- replicationUp
}

func (c *replicationCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), collectTimeout)
	defer cancel()
	lags, err := replication.Lag(ctx, c.app.DataDir())
	if err != nil {
		ch <- prometheus.MustNewConstMetric(replicationUp, prometheus.GaugeValue, 0)
		return
	}
	ch <- prometheus.MustNewConstMetric(replicationUp, prometheus.GaugeValue, 1)
	for _, lag := range lags {
		ch <- prometheus.MustNewConstMetric(replicationLag, prometheus.GaugeValue, lag.Seconds, lag.Database)
	}
}

func registerReplicationCollector(app core.App) {
	if platform.Replicated() {
		registry.MustRegister(&replicationCollector{app: app})
	}
}
