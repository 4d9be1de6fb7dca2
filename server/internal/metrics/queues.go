package metrics

import (
	"context"
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
	"github.com/prometheus/client_golang/prometheus"
)

// The queues live in the database (the media worker's jobs are video answers still pending, the mail and webhook
// queues are tables): read at each scrape, so the figures are what is stored, the same after a restart, and cost
// nothing between scrapes. Each query reads an index (video_answers.transcriptStatus, mail_queue.status,
// webhook_deliveries.status).
type queueCollector struct {
	app core.App
}

var (
	mediaQueueJobs = prometheus.NewDesc("screenroom_media_queue_jobs",
		"Video answers waiting for the media worker (transcriptStatus pending).", nil, nil)
	mediaQueueOldest = prometheus.NewDesc("screenroom_media_queue_oldest_job_age_seconds",
		"Age of the oldest video answer waiting for the media worker; 0 when none waits.", nil, nil)
	mediaFailedJobs = prometheus.NewDesc("screenroom_media_failed_jobs",
		"Video answers whose transcript failed (given up); they leave it when asked for again or requeued.", nil, nil)
	mailQueue = prometheus.NewDesc("screenroom_mail_queue_messages",
		"E-mails in the mail queue, by status: pending (waiting to be sent or retried) or failed (given up).", []string{"status"}, nil)
	webhookQueue = prometheus.NewDesc("screenroom_webhook_queue_deliveries",
		"Webhook deliveries, by status: pending (waiting to be sent or retried) or failed (given up).", []string{"status"}, nil)
)

func newQueueCollector(app core.App) *queueCollector {
	return &queueCollector{app: app}
}

func (c *queueCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- mediaQueueJobs
	ch <- mediaQueueOldest
	ch <- mediaFailedJobs
	ch <- mailQueue
	ch <- webhookQueue
}

// collectTimeout bounds the queries of one scrape: a database busy with a long write makes the scrape report an
// error for these figures rather than hold Prometheus's connection.
const collectTimeout = 5 * time.Second

func (c *queueCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), collectTimeout)
	defer cancel()
	db := c.app.DB()

	var media struct {
		Jobs   int    `db:"jobs"`
		Oldest string `db:"oldest"`
	}
	err := db.NewQuery(`SELECT COUNT(*) AS jobs, COALESCE(MIN(created), '') AS oldest FROM video_answers WHERE transcriptStatus = 'pending'`).
		WithContext(ctx).One(&media)
	if err != nil {
		ch <- prometheus.NewInvalidMetric(mediaQueueJobs, err)
	} else {
		ch <- prometheus.MustNewConstMetric(mediaQueueJobs, prometheus.GaugeValue, float64(media.Jobs))
		ch <- prometheus.MustNewConstMetric(mediaQueueOldest, prometheus.GaugeValue, ageSeconds(media.Oldest, time.Now()))
	}
	var failed int
	err = db.NewQuery(`SELECT COUNT(*) FROM video_answers WHERE transcriptStatus = 'failed'`).WithContext(ctx).Row(&failed)
	if err != nil {
		ch <- prometheus.NewInvalidMetric(mediaFailedJobs, err)
	} else {
		ch <- prometheus.MustNewConstMetric(mediaFailedJobs, prometheus.GaugeValue, float64(failed))
	}

	for _, queue := range []struct {
		desc  *prometheus.Desc
		table string
	}{{mailQueue, "mail_queue"}, {webhookQueue, "webhook_deliveries"}} {
		counts, err := statusCounts(ctx, db, queue.table)
		if err != nil {
			ch <- prometheus.NewInvalidMetric(queue.desc, err)
			continue
		}
		for _, status := range []string{"pending", "failed"} {
			ch <- prometheus.MustNewConstMetric(queue.desc, prometheus.GaugeValue, float64(counts[status]), status)
		}
	}
}

// statusCounts counts a queue's rows by status (pending and failed only: sent rows are history, not queue).
func statusCounts(ctx context.Context, db dbx.Builder, table string) (map[string]int, error) {
	var rows []struct {
		Status string `db:"status"`
		N      int    `db:"n"`
	}
	err := db.NewQuery(`SELECT status, COUNT(*) AS n FROM ` + table + ` WHERE status IN ('pending', 'failed') GROUP BY status`).
		WithContext(ctx).All(&rows)
	counts := map[string]int{}
	for _, row := range rows {
		counts[row.Status] = row.N
	}
	return counts, err
}

// ageSeconds is the time since a stored date ("2006-01-02 15:04:05.000Z"), 0 for none or one in the future.
func ageSeconds(stored string, now time.Time) float64 {
	if stored == "" {
		return 0
	}
	at, err := time.Parse("2006-01-02 15:04:05.000Z", stored)
	if err != nil || at.After(now) {
		return 0
	}
	return now.Sub(at).Seconds()
}
