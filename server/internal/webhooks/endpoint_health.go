package webhooks

import (
	"os"
	"strconv"
	"strings"
	"time"

	"screenroom/server/internal/mail"
	"screenroom/server/internal/platform"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
)

// An endpoint that keeps failing is disabled, so deliveries stop piling up against a receiver nobody watches, and
// the company's owner is told by e-mail (English, as every manager e-mail). "Keeps failing" is a run of failed
// attempts with no success in between: failingSince is the run's first failure, emptied by any success; the
// attempt that fails once the run is WEBHOOKS_DISABLE_AFTER_HOURS old (default 120, five days: a receiver broken
// over a long weekend is still enabled when its team is back) disables it. Time is the server's clock, so the test
// clock moves it. Test events leave the run alone either way: a manager tries an endpoint they are still setting up,
// and a receiver that answers a test has not yet received the events that failed. An endpoint a manager enables again
// starts with no run (the update hook, endpoints.go).

const (
	disableAfterSetting = "WEBHOOKS_DISABLE_AFTER_HOURS"
	defaultDisableAfter = 120 * time.Hour
)

// parseHours reads a number of hours (fractions allowed) within [min, max]; ok false when it is not one.
func parseHours(raw string, min, max float64) (time.Duration, bool) {
	hours, err := strconv.ParseFloat(strings.TrimSpace(raw), 64)
	// written so that NaN, which every comparison calls false, fails too
	if err != nil || !(hours >= min && hours <= max) {
		return 0, false
	}
	return time.Duration(hours * float64(time.Hour)), true
}

// hoursSetting is the environment's name as hours within [min, max]; fallback when unset, and when not such a
// number (logged).
func hoursSetting(app core.App, name string, min, max float64, fallback time.Duration) time.Duration {
	raw := strings.TrimSpace(os.Getenv(name))
	if raw == "" {
		return fallback
	}
	value, ok := parseHours(raw, min, max)
	if !ok {
		app.Logger().Warn("webhooks: a setting in hours is out of range; the default applies", "name", name, "value", raw, "min", min, "max", max)
		return fallback
	}
	return value
}

// disableAfter is WEBHOOKS_DISABLE_AFTER_HOURS: more than 0, at most ten years.
func disableAfter(app core.App) time.Duration {
	return hoursSetting(app, disableAfterSetting, 1e-9, 24*3650, defaultDisableAfter)
}

// noteHealth counts an attempt's outcome towards its endpoint's health.
func (s *webhookSender) noteHealth(row deliveryRow, o outcome) {
	if o.skipped || row.Event == testEvent {
		return
	}
	if err := noteEndpointOutcome(s.app, row.Endpoint, o.err == "", o.err); err != nil {
		s.app.Logger().Error("webhooks: recording an endpoint's health failed", "endpoint", row.Endpoint, "error", err.Error())
	}
}

// noteEndpointOutcome ends the endpoint's run of failures on a success; on a failure it starts the run if none is
// going, and disables the endpoint when the run has lasted long enough.
func noteEndpointOutcome(app core.App, endpointID string, succeeded bool, lastError string) error {
	if succeeded {
		_, err := app.NonconcurrentDB().NewQuery(
			`UPDATE webhook_endpoints SET failingSince = '' WHERE id = {:id} AND failingSince != ''`,
		).Bind(dbx.Params{"id": endpointID}).Execute()
		return err
	}
	now := platform.Now(app)
	_, err := app.NonconcurrentDB().NewQuery(
		`UPDATE webhook_endpoints SET failingSince = {:now} WHERE id = {:id} AND (failingSince = '' OR failingSince IS NULL)`,
	).Bind(dbx.Params{"id": endpointID, "now": platform.DBTime(now)}).Execute()
	if err != nil {
		return err
	}
	return disableIfFailingTooLong(app, endpointID, now, lastError)
}

// disableIfFailingTooLong disables the endpoint and queues the owner's e-mail, together, when it is enabled and has
// been failing for disableAfter by now. Read and written in one transaction, so the sender's parallel attempts
// disable it, and mail the owner, once.
func disableIfFailingTooLong(app core.App, endpointID string, now time.Time, lastError string) error {
	return app.RunInTransaction(func(tx core.App) error {
		endpoint := platform.FindByIdOrNil(tx, "webhook_endpoints", endpointID)
		if endpoint == nil || !endpoint.GetBool("enabled") {
			return nil
		}
		since, ok := platform.ParseDBTime(endpoint.GetString("failingSince"))
		if !ok || now.Sub(since) < disableAfter(tx) {
			return nil
		}
		endpoint.Set("enabled", false)
		endpoint.Set("disabledAt", platform.DBTime(now))
		endpoint.Set("disabledReason", lastError)
		// no validation: a URL the current settings would refuse must not keep a failing endpoint enabled
		if err := tx.SaveNoValidate(endpoint); err != nil {
			return err
		}
		company := platform.FindByIdOrNil(tx, "companies", endpoint.GetString("company"))
		if company == nil {
			return nil
		}
		owner := platform.FindByIdOrNil(tx, "users", company.GetString("owner"))
		if owner == nil {
			return nil
		}
		return mail.QueueWebhookDisabledNotice(tx, company, owner, mail.DisabledEndpoint{
			URL: endpoint.GetString("url"), FailingSince: since, DisabledAt: now, LastError: lastError,
		})
	})
}
