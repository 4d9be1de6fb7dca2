package pipeline

import (
	"slices"

	"screenroom/server/internal/platform"
	"screenroom/server/internal/webhooks"

	"github.com/pocketbase/pocketbase/apis"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/router"
)

var decisions = []string{"advance", "hold", "reject"}

// registerDecision: POST /api/screenroom/candidates/{id}/decision, body {decision: "advance" | "hold" | "reject" |
// ""}: a manager of the job's company sets, changes or clears the candidate's decision. 200 the candidate record
// (decisionBy the manager, decisionAt now; "" clears all three; the decision it already has changes nothing, so a
// repeated request keeps who set it and when). Anyone else, and an unknown id, gets the same 404, before the body is
// read: the route says nothing about other companies' candidates. A record save (in a transaction, from the row as
// it is), so managers subscribed to the candidate see it live and a candidate's own subscription gets it without
// the decision (internal/review's enrich hook).
func registerDecision(app core.App) {
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		se.Router.POST("/api/screenroom/candidates/{id}/decision", decide)
		return se.Next()
	})
}

func decide(e *core.RequestEvent) error {
	notFound := router.NewNotFoundError("The requested resource wasn't found.", nil)
	info, err := e.RequestInfo()
	if err != nil {
		return err
	}
	user := platform.RequestUser(e)
	if user == nil {
		return notFound
	}
	candidate := platform.FindByIdOrNil(e.App, "candidates", e.Request.PathValue("id"))
	if candidate == nil {
		return notFound
	}
	// the list rule, not the view rule: the view rule also lets the candidate itself read its record
	if ok, _ := e.App.CanAccessRecord(candidate, info, candidate.Collection().ListRule); !ok {
		return notFound
	}

	decision, isText := info.Body["decision"].(string)
	if !isText || !IsDecision(decision) {
		return DecisionFieldError()
	}

	saved, _, err := SetDecision(e.App, candidate.Id, decision, user.Id)
	if err != nil {
		return err
	}
	if saved == nil {
		return notFound
	}
	if err := apis.EnrichRecord(e, saved); err != nil {
		return err
	}
	return e.JSON(200, saved)
}

// IsDecision reports whether value is a decision a manager may set: advance, hold, reject, or "" (none).
func IsDecision(value string) bool {
	return value == "" || slices.Contains(decisions, value)
}

// DecisionFieldError is the refusal of a value that is no decision, on the decision field.
func DecisionFieldError() error {
	return platform.FieldError("decision", "Choose advance, hold, reject, or no decision.", "validation_invalid_value")
}

// SetDecision sets (or, with "", clears) the decision of candidate candidateID as manager userID's, as the decision
// route does and every bulk decision does for each candidate: in a transaction, from the row as it is, with who and
// when, and the candidate.decided webhook event committing with it. The decision it already has changes nothing
// (changed false), so a repeat keeps who set it and when. The saved record, or nil with no error when the candidate
// no longer exists. Access is the caller's to decide.
func SetDecision(app core.App, candidateID, decision, userID string) (saved *core.Record, changed bool, err error) {
	err = app.RunInTransaction(func(txApp core.App) error {
		record := platform.FindByIdOrNil(txApp, "candidates", candidateID)
		if record == nil {
			return nil
		}
		saved = record
		if record.GetString("decision") == decision {
			return nil
		}
		record.Set("decision", decision)
		if decision != "" {
			record.Set("decisionBy", userID)
			record.Set("decisionAt", dbNow())
		} else {
			record.Set("decisionBy", "")
			record.Set("decisionAt", "")
		}
		if err := txApp.Save(record); err != nil {
			return err
		}
		changed = true
		// candidate.decided, with the decision it commits with ("" when cleared)
		return webhooks.RecordDecisionEvent(txApp, record.Id, decision, userID, record.GetString("decisionAt"))
	})
	if err != nil {
		return nil, false, err
	}
	return saved, changed, nil
}
