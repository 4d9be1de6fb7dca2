package webhooks

import (
	"time"

	"screenroom/server/internal/platform"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/apis"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/router"
	"github.com/pocketbase/pocketbase/tools/security"
)

// secretAlphabet is base64's: 32 of its characters are exactly 24 bytes.
const secretAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

// newSecret is a Standard Webhooks secret: "whsec_" and the base64 of 24 random bytes.
func newSecret() string {
	return "whsec_" + security.RandomStringWithAlphabet(32, secretAlphabet)
}

// serverFields are the endpoint's fields only the server writes: its secrets (endpoint_routes.go) and its health
// (endpoint_health.go).
var serverFields = []string{"secret", "previousSecret", "previousSecretUntil", "secretRotatedAt", "failingSince", "disabledAt", "disabledReason"}

// registerEndpointSecret: the secret is the server's, made whatever the body says and shown in the create response
// only (unhidden on this record alone; a view, a list, an expand or a realtime event serialises a fresh copy,
// hidden). Nobody changes it, nor the endpoint's other server fields, through the records API, a superuser's tools
// included: the rotate-secret route makes a new one. A new endpoint is enabled unless the body says otherwise.
// Enabling or disabling an endpoint by hand, or giving it another URL, starts its health afresh: no run of failures,
// no record of having been disabled by the server.
func registerEndpointSecret(app core.App) {
	app.OnRecordCreateRequest("webhook_endpoints").BindFunc(func(e *core.RecordRequestEvent) error {
		info, err := e.RequestInfo()
		if err != nil {
			return err
		}
		for _, field := range serverFields {
			e.Record.Set(field, "")
		}
		e.Record.Set("secret", newSecret())
		if _, given := info.Body["enabled"]; !given {
			e.Record.Set("enabled", true)
		}
		e.Record.Unhide("secret")
		return e.Next()
	})
	app.OnRecordUpdateRequest("webhook_endpoints").BindFunc(func(e *core.RecordRequestEvent) error {
		original := e.Record.Original()
		for _, field := range serverFields {
			e.Record.Set(field, original.Get(field))
		}
		if e.Record.GetBool("enabled") != original.GetBool("enabled") || e.Record.GetString("url") != original.GetString("url") {
			e.Record.Set("failingSince", "")
			e.Record.Set("disabledAt", "")
			e.Record.Set("disabledReason", "")
		}
		return e.Next()
	})
}

// registerEventHooks records the events that are not candidate progress (started and completed are recorded where
// the status changes, internal/pipeline; decided by the decision route). A failure is logged, never the write's.
func registerEventHooks(app core.App) {
	// candidate.invited: every way a candidate is created (an invite, a bulk import, a superuser's tools), once
	// committed
	app.OnRecordAfterCreateSuccess("candidates").BindFunc(func(e *core.RecordEvent) error {
		if err := e.Next(); err != nil {
			return err
		}
		if err := RecordCandidateEvent(e.App, "candidate.invited", e.Record.Id); err != nil {
			e.App.Logger().Error("webhook event failed", "event", "candidate.invited", "candidate", e.Record.Id, "error", err.Error())
		}
		return nil
	})
	// answer.transcribed: the media worker sets transcriptStatus "done"; recorded with that write (in its transaction
	// when there is one), once per change to done
	app.OnRecordUpdate("video_answers").BindFunc(func(e *core.RecordEvent) error {
		became := e.Record.GetString("transcriptStatus") == "done" && e.Record.Original().GetString("transcriptStatus") != "done"
		if err := e.Next(); err != nil {
			return err
		}
		if !became {
			return nil
		}
		if err := recordTranscribed(e.App, e.Record); err != nil {
			e.App.Logger().Error("webhook event failed", "event", "answer.transcribed", "videoAnswer", e.Record.Id, "error", err.Error())
		}
		return nil
	})
}

// registerSendAgain: POST /api/screenroom/webhook-deliveries/{id}/send-again: a manager of the endpoint's company
// puts a delivery that has finished (succeeded or failed) back in the queue: pending, attempts from 0, a new day of
// retries, the same webhook-id (the delivery's id, so a receiver that keeps ids can tell it is the same message). A
// pending one is already queued: 409. A test event is not (400): it is sent once, and a new one is a click away.
// Anyone else, and an unknown id, gets the same 404.
func registerSendAgain(app core.App) {
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		se.Router.POST("/api/screenroom/webhook-deliveries/{id}/send-again", sendAgain)
		return se.Next()
	})
}

func sendAgain(e *core.RequestEvent) error {
	notFound := router.NewNotFoundError("The requested resource wasn't found.", nil)
	if platform.RequestUser(e) == nil && !e.HasSuperuserAuth() {
		return notFound
	}
	delivery := platform.FindByIdOrNil(e.App, "webhook_deliveries", e.Request.PathValue("id"))
	if delivery == nil {
		return notFound
	}
	info, err := e.RequestInfo()
	if err != nil {
		return err
	}
	if ok, _ := e.App.CanAccessRecord(delivery, info, delivery.Collection().ListRule); !ok {
		return notFound
	}
	if delivery.GetString("event") == testEvent {
		return router.NewBadRequestError("A test event is not sent again: send a new one from the endpoint.", nil)
	}
	now := time.Now()
	// conditional, so a delivery the sender is working (pending) is never reset under it
	result, err := e.App.DB().NewQuery(
		`UPDATE webhook_deliveries SET status = 'pending', attempts = 0, nextAttemptAt = {:now}, giveUpAt = {:giveUp},
		   lastError = '', updated = {:now}
		 WHERE id = {:id} AND status != 'pending'`,
	).Bind(dbx.Params{"id": delivery.Id, "now": platform.DBTime(now), "giveUp": platform.DBTime(now.Add(retryWindow()))}).Execute()
	if err != nil {
		return err
	}
	if n, err := result.RowsAffected(); err != nil || n != 1 {
		return router.NewApiError(409, "This delivery is already waiting to be sent.", nil)
	}
	saved, err := e.App.FindRecordById("webhook_deliveries", delivery.Id)
	if err != nil {
		return err
	}
	if err := apis.EnrichRecord(e, saved); err != nil {
		return err
	}
	return e.JSON(200, saved)
}
