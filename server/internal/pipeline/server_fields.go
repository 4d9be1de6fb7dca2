package pipeline

import (
	"slices"

	"screenroom/server/internal/platform"

	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/router"
)

// The candidate fields written by the server only: the records API (and the batch API, which runs the same request
// hooks per item) refuses them to everyone but superusers.
var (
	progressFields = []string{"status", "answeredCount", "startedAt", "completedAt"}
	// RatingFields follow the managers' ratings.
	RatingFields = []string{"averageRating", "ratingsCount"}
	// DecisionFields are set by POST /api/screenroom/candidates/{id}/decision.
	DecisionFields = []string{"decision", "decisionBy", "decisionAt"}
	// when the candidate agreed on the start screen: POST /api/screenroom/interviews/{key}/consent only
	consentFields = []string{"consentedAt"}
	// when the reminders and the completion e-mails went: each stamp sends once
	mailFields = []string{"remindedEarlyAt", "remindedLateAt", "completionMailedAt"}
	// stamped when a manager sets `withdrawn`
	withdrawalFields = []string{"withdrawnAt"}
	// the candidate's own language, chosen with the switcher: POST /api/screenroom/interviews/{key}/language only
	languageFields = []string{"language"}
	serverFields   = slices.Concat(progressFields, RatingFields, DecisionFields, consentFields, mailFields, withdrawalFields, languageFields)
	numberFields   = []string{"answeredCount", "averageRating", "ratingsCount"}
)

// fieldValue is a server field's value, comparable with ==: a number for the number fields, else the stored text
// ("" when empty).
func fieldValue(record *core.Record, field string) any {
	if slices.Contains(numberFields, field) {
		return record.GetFloat(field)
	}
	return record.GetString(field)
}

// serverFieldError is the records API's refusal of a write to one of the server's fields: a 400 on that field.
func serverFieldError(field string) *router.ApiError {
	message := "This field is kept by the server."
	switch {
	case slices.Contains(DecisionFields, field):
		message = "The decision is set with POST /api/screenroom/candidates/{id}/decision."
	case slices.Contains(consentFields, field):
		message = "Consent is given with POST /api/screenroom/interviews/{key}/consent."
	case slices.Contains(languageFields, field):
		message = "The candidate chooses their language on their interview screens."
	}
	return platform.FieldError(field, message, "validation_read_only")
}

// isDefault reports whether a new candidate's server field holds what it has anyway (a client may post a whole
// record).
func isDefault(record *core.Record, field string) bool {
	switch value := fieldValue(record, field).(type) {
	case float64:
		return value == 0
	default:
		return value == "" || (field == "status" && value == "invited")
	}
}

func registerServerFields(app core.App) {
	// A new candidate starts invited, with nothing answered, rated or decided (the request hook below refuses
	// anything else from a client; a superuser's import may bring its own values).
	app.OnRecordCreate("candidates").BindFunc(func(e *core.RecordEvent) error {
		if e.Record.GetString("status") == "" {
			e.Record.Set("status", "invited")
		}
		return e.Next()
	})

	// Every save of a candidate writes the whole row. A manager's edit (its e-mail) carries the server's fields as
	// they were when the API read the record, so an answer, a rating or a decision stored in between would be undone:
	// the server's fields this save does not change are taken again from the row just before it is written.
	app.OnRecordUpdate("candidates").BindFunc(func(e *core.RecordEvent) error {
		original := e.Record.Original()
		var kept []string
		for _, field := range serverFields {
			if fieldValue(e.Record, field) == fieldValue(original, field) {
				kept = append(kept, field)
			}
		}
		if len(kept) > 0 {
			// deleted meanwhile: the save fails on its own
			if current := platform.FindByIdOrNil(e.App, "candidates", e.Record.Id); current != nil {
				for _, field := range kept {
					e.Record.Set(field, current.Get(field))
				}
			}
		}
		movedJob := original.GetString("job") != e.Record.GetString("job")
		if err := e.Next(); err != nil {
			return err
		}
		// only a superuser moves a candidate to another job (the update rule keeps `job`): its progress against that
		// job's questions
		if movedJob {
			return RecomputeCandidateProgress(e.App, e.Record.Id)
		}
		return nil
	})

	// The records and batch APIs: the server's fields are not a client's to write (a superuser's tools may). The body
	// is already loaded into the record here (modifiers such as `answeredCount+` resolved), so what is compared is
	// what would be stored: a create may only carry the defaults, an update only the stored values.
	app.OnRecordCreateRequest("candidates").BindFunc(func(e *core.RecordRequestEvent) error {
		if !e.HasSuperuserAuth() {
			for _, field := range serverFields {
				if !isDefault(e.Record, field) {
					return serverFieldError(field)
				}
			}
		}
		return e.Next()
	})
	app.OnRecordUpdateRequest("candidates").BindFunc(func(e *core.RecordRequestEvent) error {
		if !e.HasSuperuserAuth() {
			original := e.Record.Original()
			for _, field := range serverFields {
				if fieldValue(e.Record, field) != fieldValue(original, field) {
					return serverFieldError(field)
				}
			}
		}
		return e.Next()
	})
}
