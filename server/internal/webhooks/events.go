package webhooks

import (
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"screenroom/server/internal/platform"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
)

// Recording an event: one webhook_deliveries row, status pending, per enabled endpoint of the company that wants
// it. Nothing is sent here: the sender (webhooks.go) works the queue outside the request. Recording with the
// caller's transaction app makes the delivery commit with the change it reports, or not at all: a rolled-back answer
// never announces a completed candidate.

// retryWindow is how long a delivery is retried after its event (or after 'send again'): a day, shorter only in
// tests (WEBHOOKS_RETRY_WINDOW_MS).
func retryWindow() time.Duration {
	if ms, err := strconv.ParseFloat(os.Getenv("WEBHOOKS_RETRY_WINDOW_MS"), 64); err == nil && ms > 0 && ms <= 1e15 {
		return time.Duration(ms * float64(time.Millisecond))
	}
	return 24 * time.Hour
}

// isoOf is the payload's ISO 8601 form of a stored date text, or nil when empty.
func isoOf(text string) any {
	if text == "" {
		return nil
	}
	return strings.Replace(text, " ", "T", 1)
}

// candidateData is what every candidate event's data carries: the candidate, its job and the job's company (no key,
// no link: those are credentials).
func candidateData(app core.App, candidate *core.Record) (map[string]any, error) {
	job, company, err := platform.JobAndCompanyOf(app, candidate)
	if err != nil {
		return nil, err
	}
	status := candidate.GetString("status")
	if status == "" {
		status = "invited"
	}
	return map[string]any{
		"candidate": map[string]any{
			"id":        candidate.Id,
			"email":     candidate.GetString("email"),
			"status":    status,
			"deadline":  isoOf(candidate.GetString("deadline")),
			"createdAt": isoOf(candidate.GetString("created")),
		},
		"job":     map[string]any{"id": job.Id, "title": job.GetString("title")},
		"company": map[string]any{"id": company.Id, "name": company.GetString("name")},
	}, nil
}

// companyOfCandidate is the company of the candidate (one indexed read), or "".
func companyOfCandidate(app core.App, candidateID string) string {
	var row struct {
		Company string `db:"company"`
	}
	err := app.DB().
		NewQuery("SELECT j.company AS company FROM candidates c JOIN jobs j ON j.id = c.job WHERE c.id = {:id}").
		Bind(dbx.Params{"id": candidateID}).
		One(&row)
	if err != nil {
		return ""
	}
	return row.Company
}

// recordEvent records eventType for the company: one pending delivery per enabled endpoint that wants it (none:
// nothing more is read). data builds the payload's data, called only when some endpoint wants the event (a job's
// questions changing may complete thousands of candidates of a company with no endpoint); candidateID ties the
// delivery to its candidate (erased with it).
func recordEvent(app core.App, eventType, companyID, candidateID string, data func() (map[string]any, error)) error {
	endpoints, err := app.FindRecordsByFilter(
		"webhook_endpoints",
		"company = {:company} && enabled = true && events ~ {:event}",
		"created", 0, 0,
		dbx.Params{"company": companyID, "event": eventType},
	)
	if err != nil {
		return err
	}
	// `~` on a multi-select matches a part of its JSON text (`?=` does not match select values): this is exact
	wanted := endpoints[:0]
	for _, endpoint := range endpoints {
		if slices.Contains(endpoint.GetStringSlice("events"), eventType) {
			wanted = append(wanted, endpoint)
		}
	}
	if len(wanted) == 0 {
		return nil
	}
	payloadData, err := data()
	if err != nil {
		return err
	}
	payload := map[string]any{
		"type":      eventType,
		"timestamp": platform.Now(app).Format("2006-01-02T15:04:05.000Z"),
		"data":      payloadData,
	}
	collection, err := app.FindCollectionByNameOrId("webhook_deliveries")
	if err != nil {
		return err
	}
	// the sender compares nextAttemptAt with the real clock, not the test clock
	now := time.Now()
	for _, endpoint := range wanted {
		delivery := core.NewRecord(collection)
		delivery.Set("endpoint", endpoint.Id)
		delivery.Set("candidate", candidateID)
		delivery.Set("event", eventType)
		delivery.Set("payload", payload)
		delivery.Set("status", "pending")
		delivery.Set("attempts", 0)
		delivery.Set("nextAttemptAt", platform.DBTime(now))
		delivery.Set("giveUpAt", platform.DBTime(now.Add(retryWindow())))
		if err := app.Save(delivery); err != nil {
			return err
		}
	}
	return nil
}

// recordCandidateEvent records a candidate event; extra (may be nil) adds keys to its data, given the candidate.
func recordCandidateEvent(app core.App, eventType, candidateID string, extra func(candidate *core.Record) (map[string]any, error)) error {
	companyID := companyOfCandidate(app, candidateID)
	if companyID == "" {
		return nil
	}
	return recordEvent(app, eventType, companyID, candidateID, func() (map[string]any, error) {
		candidate, err := app.FindRecordById("candidates", candidateID)
		if err != nil {
			return nil, err
		}
		data, err := candidateData(app, candidate)
		if err != nil {
			return nil, err
		}
		if extra != nil {
			more, err := extra(candidate)
			if err != nil {
				return nil, err
			}
			for key, value := range more {
				data[key] = value
			}
		}
		return data, nil
	})
}

// RecordCandidateEvent records eventType (candidate.invited, candidate.started, candidate.completed) for the
// candidate, with the candidate, its job and its company as the data.
func RecordCandidateEvent(app core.App, eventType, candidateID string) error {
	return recordCandidateEvent(app, eventType, candidateID, nil)
}

// RecordProgressEvent records candidate.started (with when it started) or candidate.completed (with when, and how
// many answers it gave) for the candidate.
func RecordProgressEvent(app core.App, eventType, candidateID string) error {
	return recordCandidateEvent(app, eventType, candidateID, func(candidate *core.Record) (map[string]any, error) {
		if eventType == "candidate.started" {
			return map[string]any{"progress": map[string]any{"startedAt": isoOf(candidate.GetString("startedAt"))}}, nil
		}
		return map[string]any{"progress": map[string]any{
			"completedAt":   isoOf(candidate.GetString("completedAt")),
			"answeredCount": candidate.GetInt("answeredCount"),
		}}, nil
	})
}

// RecordDecisionEvent records candidate.decided with the decision the candidate's row commits with (value "" when
// cleared): decidedBy and decidedAt are nil then.
func RecordDecisionEvent(app core.App, candidateID, decision, decidedBy, decidedAt string) error {
	value := map[string]any{"value": decision, "decidedBy": nil, "decidedAt": nil}
	if decision != "" {
		value["decidedBy"] = decidedBy
		value["decidedAt"] = strings.Replace(decidedAt, " ", "T", 1)
	}
	return recordCandidateEvent(app, "candidate.decided", candidateID, func(*core.Record) (map[string]any, error) {
		return map[string]any{"decision": value}, nil
	})
}

// recordTranscribed records answer.transcribed for a video answer whose transcript is done: the answer, its
// question and the transcript text (never the video).
func recordTranscribed(app core.App, videoAnswer *core.Record) error {
	answer, err := app.FindRecordById("answers", videoAnswer.GetString("answer"))
	if err != nil {
		return err
	}
	return recordCandidateEvent(app, "answer.transcribed", answer.GetString("candidate"), func(*core.Record) (map[string]any, error) {
		question, err := app.FindRecordById("questions", answer.GetString("question"))
		if err != nil {
			return nil, err
		}
		return map[string]any{"answer": map[string]any{
			"id":              answer.Id,
			"videoAnswerId":   videoAnswer.Id,
			"question":        map[string]any{"id": question.Id, "title": question.GetString("title")},
			"durationSeconds": videoAnswer.GetFloat("durationSeconds"),
			"transcript":      videoAnswer.GetString("transcript"),
		}}, nil
	})
}

// RecordMessagedEvent records candidate.messaged for the decision message just saved (a decision_messages record,
// internal/messages): what was sent, in which language, when and by whom. Never the letter's links.
func RecordMessagedEvent(app core.App, candidateID string, message *core.Record) error {
	return recordCandidateEvent(app, "candidate.messaged", candidateID, func(*core.Record) (map[string]any, error) {
		return map[string]any{"message": map[string]any{
			"id":       message.Id,
			"kind":     message.GetString("kind"),
			"language": message.GetString("language"),
			"subject":  message.GetString("subject"),
			"body":     message.GetString("body"),
			"sentBy":   message.GetString("sentBy"),
			"sentAt":   isoOf(message.GetString("sentAt")),
		}}, nil
	})
}
