package webhooks

import (
	"context"
	"net/http"
	"time"

	"screenroom/server/internal/platform"

	"github.com/pocketbase/pocketbase/apis"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/router"
)

// A manager's two actions on one endpoint of their company, besides the records API's edits:
//
// POST /api/screenroom/webhook-endpoints/{id}/test sends a "webhook.test" event to the endpoint now, signed like
// every event, and answers with its delivery once the attempt is over (a 2xx: succeeded; anything else: failed, with
// the reason), so the screen shows the result at once. It is never retried and never counts towards the endpoint's
// health; it goes to a disabled endpoint too (that is when a manager checks a repaired receiver). One at a time per
// endpoint (409), RATE_LIMIT_WEBHOOK_TESTS a manager (429).
//
// POST /api/screenroom/webhook-endpoints/{id}/rotate-secret makes a new secret and answers with the endpoint
// carrying it, the only response that ever does. What receivers expect (Standard Webhooks, as Svix and others rotate):
// from that moment every delivery is signed with the new secret, retries and 'send again' of earlier events
// included, since each attempt is signed when it is sent; for WEBHOOKS_SECRET_OVERLAP_HOURS (default 24, 0 for
// none) each one also carries a second signature made with the replaced secret, in the same webhook-signature header
// ("v1,<new> v1,<old>"), so a receiver that still holds the old secret keeps verifying until it switches. Rotating
// again within that time replaces the older secret: only the one just replaced still signs.
//
// Both answer 404 to anyone but a verified manager of the endpoint's company, as for an unknown id.

const testEvent = "webhook.test"

const (
	secretOverlapSetting = "WEBHOOKS_SECRET_OVERLAP_HOURS"
	defaultSecretOverlap = 24 * time.Hour
)

// secretOverlap is WEBHOOKS_SECRET_OVERLAP_HOURS: 0 to 720 (30 days).
func secretOverlap(app core.App) time.Duration {
	return hoursSetting(app, secretOverlapSetting, 0, 720, defaultSecretOverlap)
}

// signatures is the webhook-signature header of an attempt: the current secret's signature, and the replaced
// secret's while it still signs (by the server's clock).
func (s *webhookSender) signatures(key []byte, row deliveryRow, timestamp string, body []byte) string {
	header := "v1," + signWebhook(key, row.Id, timestamp, body)
	if row.PrevSecret == "" {
		return header
	}
	until, ok := platform.ParseDBTime(row.PrevSecretEnd)
	if !ok || !platform.Now(s.app).Before(until) {
		return header
	}
	if previous, err := decodeSecret(row.PrevSecret); err == nil {
		header += " v1," + signWebhook(previous, row.Id, timestamp, body)
	}
	return header
}

func registerEndpointRoutes(app core.App, s *webhookSender) {
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		se.Router.POST("/api/screenroom/webhook-endpoints/{id}/test", s.sendTestEvent)
		se.Router.POST("/api/screenroom/webhook-endpoints/{id}/rotate-secret", rotateSecret)
		return se.Next()
	})
}

func endpointNotFound() error {
	return router.NewNotFoundError("The requested resource wasn't found.", nil)
}

// managedEndpoint is the endpoint of the route's {id} and the request's user, when that user is a verified manager
// of the endpoint's company; nil otherwise.
func managedEndpoint(e *core.RequestEvent) (endpoint, user *core.Record) {
	user = platform.RequestUser(e)
	if user == nil || !user.Verified() {
		return nil, nil
	}
	endpoint = platform.FindByIdOrNil(e.App, "webhook_endpoints", e.Request.PathValue("id"))
	if endpoint == nil || !platform.ManagesCompany(e.App, endpoint.GetString("company"), user.Id) {
		return nil, nil
	}
	return endpoint, user
}

func (s *webhookSender) sendTestEvent(e *core.RequestEvent) error {
	endpoint, user := managedEndpoint(e)
	if endpoint == nil {
		return endpointNotFound()
	}
	if _, busy := s.testing.LoadOrStore(endpoint.Id, true); busy {
		return router.NewApiError(http.StatusConflict, "A test event is already being sent to this endpoint.", nil)
	}
	defer s.testing.Delete(endpoint.Id)
	if err := platform.RequireWebhookTestBudget(e.App, user.Id); err != nil {
		return err
	}
	company := platform.FindByIdOrNil(e.App, "companies", endpoint.GetString("company"))
	if company == nil {
		return endpointNotFound()
	}
	collection, err := e.App.FindCachedCollectionByNameOrId("webhook_deliveries")
	if err != nil {
		return err
	}
	now := time.Now()
	delivery := core.NewRecord(collection)
	delivery.Set("endpoint", endpoint.Id)
	delivery.Set("event", testEvent)
	delivery.Set("payload", map[string]any{
		"type":      testEvent,
		"timestamp": platform.Now(e.App).Format("2006-01-02T15:04:05.000Z"),
		"data": map[string]any{
			"endpoint": map[string]any{"id": endpoint.Id, "url": endpoint.GetString("url")},
			"company":  map[string]any{"id": company.Id, "name": company.GetString("name")},
			"sentBy":   user.Id,
			"message":  "A test event from Screenroom, signed like every event. No candidate is involved.",
		},
	})
	delivery.Set("status", "pending")
	delivery.Set("attempts", 0)
	// the queue's lease, as the sender takes it: the queue leaves this one to the request (a crash mid-send leaves
	// it to one attempt of the queue's, then it fails: its giveUpAt is now)
	delivery.Set("nextAttemptAt", platform.DBTime(now.Add(s.timeout+time.Minute)))
	delivery.Set("giveUpAt", platform.DBTime(now))
	if err := e.App.Save(delivery); err != nil {
		return err
	}
	row, err := readDelivery(e.App, delivery.Id)
	if err != nil {
		return err
	}
	// the attempt outlives a client that stops waiting, so its row always ends succeeded or failed
	ctx, cancel := context.WithTimeout(context.WithoutCancel(e.Request.Context()), s.timeout+5*time.Second)
	defer cancel()
	o := s.post(ctx, row)
	o.final = true
	s.record(row, o)
	saved, err := e.App.FindRecordById("webhook_deliveries", delivery.Id)
	if err != nil {
		return err
	}
	if err := apis.EnrichRecord(e, saved); err != nil {
		return err
	}
	return e.JSON(http.StatusOK, saved)
}

func rotateSecret(e *core.RequestEvent) error {
	endpoint, _ := managedEndpoint(e)
	if endpoint == nil {
		return endpointNotFound()
	}
	var rotated *core.Record
	err := e.App.RunInTransaction(func(tx core.App) error {
		fresh, err := tx.FindRecordById("webhook_endpoints", endpoint.Id)
		if err != nil {
			return err
		}
		now := platform.Now(tx)
		previous, until := "", ""
		if overlap := secretOverlap(tx); overlap > 0 {
			previous, until = fresh.GetString("secret"), platform.DBTime(now.Add(overlap))
		}
		fresh.Set("previousSecret", previous)
		fresh.Set("previousSecretUntil", until)
		fresh.Set("secret", newSecret())
		fresh.Set("secretRotatedAt", platform.DBTime(now))
		// no validation: the URL was accepted when it was saved, and a rotation must not fail on a setting changed since
		if err := tx.SaveNoValidate(fresh); err != nil {
			return err
		}
		rotated = fresh
		return nil
	})
	if err != nil {
		return err
	}
	if err := apis.EnrichRecord(e, rotated); err != nil {
		return err
	}
	rotated.Unhide("secret")
	return e.JSON(http.StatusOK, rotated)
}
