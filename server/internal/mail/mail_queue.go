package mail

import (
	"context"
	"math"
	"net/mail"
	"os"
	"strconv"
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/hook"
	"github.com/pocketbase/pocketbase/tools/mailer"
	"github.com/pocketbase/pocketbase/tools/types"

	"screenroom/server/internal/metrics"
)

// The mail queue: an outgoing e-mail is written into the hidden `mail_queue` collection (Queue, queue.go) instead of
// talking SMTP inside the request, so inviting 1,000 people returns as soon as their records are stored. One goroutine,
// started with `serve`, sends what is due through PocketBase's mail client at a steady pace, so a big import never
// floods the mail server (nor its per-minute limits):
//
//   - MAIL_QUEUE_PER_SECOND (default 5, may be a fraction): sends per second at most;
//   - an SMTP error retries the mail after MAIL_QUEUE_RETRY_SECONDS (default 30) doubled per attempt, at most an hour;
//   - after MAIL_QUEUE_MAX_ATTEMPTS attempts (default 8, about four hours) the mail is marked failed and logged.
//
// One sender only, so a mail is never sent twice by two workers; a crash between the SMTP send and the record's save
// sends that one mail again on the next start (at least once, never lost). A new queued mail wakes the sender at
// once (no polling delay for a single invite); otherwise it sleeps until the next retry is due.
const mailQueueCollection = "mail_queue"

type mailQueueConfig struct {
	interval    time.Duration // between two sends
	retryBase   time.Duration
	retryMax    time.Duration
	maxAttempts int
}

func mailQueueConfigFromEnv(app core.App) mailQueueConfig {
	perSecond := envFloat(app, "MAIL_QUEUE_PER_SECOND", 5)
	retry := envFloat(app, "MAIL_QUEUE_RETRY_SECONDS", 30)
	attempts := int(envFloat(app, "MAIL_QUEUE_MAX_ATTEMPTS", 8))
	if attempts < 1 {
		attempts = 1
	}
	return mailQueueConfig{
		interval:    time.Duration(float64(time.Second) / perSecond),
		retryBase:   time.Duration(retry * float64(time.Second)),
		retryMax:    time.Hour,
		maxAttempts: attempts,
	}
}

// envFloat reads a positive number from the environment; the default when unset, and the default (logged) when not
// a positive number.
func envFloat(app core.App, name string, fallback float64) float64 {
	raw := os.Getenv(name)
	if raw == "" {
		return fallback
	}
	value, err := strconv.ParseFloat(raw, 64)
	if err != nil || value <= 0 || math.IsInf(value, 0) || math.IsNaN(value) {
		app.Logger().Warn("mail queue: a setting must be a positive number; the default applies", "name", name, "value", raw)
		return fallback
	}
	return value
}

func registerMailQueue(app core.App) {
	wake := make(chan struct{}, 1)
	notify := func() {
		select {
		case wake <- struct{}{}:
		default: // already woken
		}
	}
	// after the commit, so the sender finds the new row
	app.OnRecordAfterCreateSuccess(mailQueueCollection).BindFunc(func(e *core.RecordEvent) error {
		notify()
		return e.Next()
	})

	ctx, cancel := context.WithCancel(context.Background())
	app.OnServe().Bind(&hook.Handler[*core.ServeEvent]{
		Func: func(e *core.ServeEvent) error {
			// MAIL_QUEUE_HOLD=1: nothing is sent, queued e-mails wait (the benchmark's server, whose seeded
			// invitations have no mail server to go to: retrying them took a third of its core during every read it
			// measured)
			if held, _ := strconv.ParseBool(os.Getenv("MAIL_QUEUE_HOLD")); held {
				e.App.Logger().Warn("mail queue: held (MAIL_QUEUE_HOLD), queued e-mails are not sent")
				return e.Next()
			}
			go runMailQueue(ctx, e.App, mailQueueConfigFromEnv(e.App), wake)
			return e.Next()
		},
	})
	app.OnTerminate().BindFunc(func(e *core.TerminateEvent) error {
		cancel()
		return e.Next()
	})
}

func runMailQueue(ctx context.Context, app core.App, config mailQueueConfig, wake <-chan struct{}) {
	app.Logger().Info("mail queue: started", "interval", config.interval.String(), "maxAttempts", config.maxAttempts)
	for {
		due, err := app.FindRecordsByFilter(
			mailQueueCollection,
			"status = 'pending' && (nextAttemptAt = '' || nextAttemptAt <= {:now})",
			"created",
			100,
			0,
			dbx.Params{"now": types.NowDateTime().String()},
		)
		if err != nil {
			app.Logger().Error("mail queue: reading due mails failed", "error", err.Error())
			due = nil
		}
		for _, record := range due {
			started := time.Now()
			sendQueuedMail(app, config, record)
			// the steady pace: the next send no sooner than `interval` after this one started
			if !sleepCtx(ctx, config.interval-time.Since(started)) {
				return
			}
		}
		if len(due) > 0 {
			continue
		}
		// nothing due: sleep until woken by a new mail, or until the next retry is due (at most a minute, which
		// also picks up rows written while the wake-up was missed)
		wait := time.Minute
		if next, err := nextRetryIn(app); err == nil && next < wait {
			wait = next
		}
		timer := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			timer.Stop()
			return
		case <-wake:
			timer.Stop()
		case <-timer.C:
		}
	}
}

// nextRetryIn is the time until the earliest pending retry.
func nextRetryIn(app core.App) (time.Duration, error) {
	var row struct {
		Next string `db:"next"`
	}
	err := app.DB().NewQuery("SELECT MIN(nextAttemptAt) AS next FROM mail_queue WHERE status = 'pending' AND nextAttemptAt != ''").One(&row)
	if err != nil || row.Next == "" {
		return time.Minute, err
	}
	at, err := types.ParseDateTime(row.Next)
	if err != nil {
		return time.Minute, err
	}
	wait := time.Until(at.Time())
	if wait < 0 {
		wait = 0
	}
	return wait + 10*time.Millisecond, nil
}

func sendQueuedMail(app core.App, config mailQueueConfig, due *core.Record) {
	// read again just before sending: a batch of due mails waits up to 100 sends, and meanwhile a mail may have gone
	// with its candidate (an erasure, retention or a deletion cascades to it) or been settled
	record, err := app.FindRecordById(mailQueueCollection, due.Id)
	if err != nil || record.GetString("status") != "pending" {
		return
	}
	meta := app.Settings().Meta
	message := &mailer.Message{
		From:    mail.Address{Address: meta.SenderAddress, Name: meta.SenderName},
		To:      []mail.Address{{Address: record.GetString("to")}},
		Subject: record.GetString("subject"),
		HTML:    record.GetString("html"),
		Text:    record.GetString("text"),
	}
	attempts := record.GetInt("attempts") + 1
	record.Set("attempts", attempts)
	sendErr := app.NewMailClient().Send(message)
	metrics.MailAttempt(sendErr, sendErr != nil && attempts >= config.maxAttempts)
	if sendErr == nil {
		record.Set("status", "sent")
		record.Set("sentAt", types.NowDateTime())
		record.Set("lastError", "")
	} else {
		record.Set("lastError", truncate(sendErr.Error(), 2000))
		if attempts >= config.maxAttempts {
			record.Set("status", "failed")
			app.Logger().Error("mail queue: giving up on a mail", "id", record.Id, "to", record.GetString("to"),
				"subject", record.GetString("subject"), "attempts", attempts, "error", sendErr.Error())
		} else {
			backoff := time.Duration(float64(config.retryBase) * math.Pow(2, float64(attempts-1)))
			if backoff > config.retryMax || backoff <= 0 {
				backoff = config.retryMax
			}
			next, _ := types.ParseDateTime(time.Now().Add(backoff))
			record.Set("nextAttemptAt", next)
			app.Logger().Warn("mail queue: sending failed, will retry", "id", record.Id, "attempts", attempts,
				"retryIn", backoff.String(), "error", sendErr.Error())
		}
	}
	if err := app.Save(record); err != nil {
		// a sent mail whose record could not be saved is sent again later: at least once, never lost
		app.Logger().Error("mail queue: saving a mail's state failed", "id", record.Id, "error", err.Error())
	}
}

func truncate(text string, max int) string {
	if len(text) <= max {
		return text
	}
	return text[:max]
}

// sleepCtx sleeps for d (nothing when d <= 0); false when the context ended first.
func sleepCtx(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-timer.C:
		return true
	}
}
