package platform

import (
	"regexp"
	"strings"

	"github.com/pocketbase/dbx"
	validation "github.com/pocketbase/ozzo-validation/v4"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/router"
)

// FieldError is a 400 whose message also sits on one field, as the SPA maps response.data[field] to its form.
// code defaults to validation_invalid.
func FieldError(field, message, code string) *router.ApiError {
	if code == "" {
		code = "validation_invalid"
	}
	return router.NewBadRequestError(message, validation.Errors{field: validation.NewError(code, message)})
}

// NormalizeEmail is an address as the product compares it: trimmed, lower case.
func NormalizeEmail(value string) string {
	return strings.ToLower(strings.TrimSpace(value))
}

// AppURL is the public origin of the product (APP_URL, the settings' appURL), without a trailing slash.
func AppURL(app core.App) string {
	return strings.TrimRight(app.Settings().Meta.AppURL, "/")
}

// FindFirstOrNil is the first record of collection matching filter, or nil.
func FindFirstOrNil(app core.App, collection, filter string, params dbx.Params) *core.Record {
	record, err := app.FindFirstRecordByFilter(collection, filter, params)
	if err != nil {
		return nil
	}
	return record
}

// FindByIdOrNil is the record of collection with id, or nil (also for an empty id).
func FindByIdOrNil(app core.App, collection, id string) *core.Record {
	if id == "" {
		return nil
	}
	record, err := app.FindRecordById(collection, id)
	if err != nil {
		return nil
	}
	return record
}

// RequestUser is the signed-in product user of a request (not a superuser, not a candidate), or nil.
func RequestUser(e *core.RequestEvent) *core.Record {
	if e.Auth == nil || e.Auth.Collection().Name != "users" {
		return nil
	}
	return e.Auth
}

// IsManager reports whether userID is one of company's managers (a record already read).
func IsManager(company *core.Record, userID string) bool {
	if userID == "" || company == nil {
		return false
	}
	for _, id := range company.GetStringSlice("managers") {
		if id == userID {
			return true
		}
	}
	return false
}

// QuestionKind is "video", "text" or "" when the question has no kind record.
func QuestionKind(app core.App, questionID string) string {
	if FindFirstOrNil(app, "video_questions", "question = {:q}", dbx.Params{"q": questionID}) != nil {
		return "video"
	}
	if FindFirstOrNil(app, "text_questions", "question = {:q}", dbx.Params{"q": questionID}) != nil {
		return "text"
	}
	return ""
}

// JobQuestions are the job's questions in the job's order (the order of its questions field).
func JobQuestions(app core.App, job *core.Record) []*core.Record {
	ids := job.GetStringSlice("questions")
	if len(ids) == 0 {
		return nil
	}
	found, err := app.FindRecordsByIds("questions", ids)
	if err != nil {
		return nil
	}
	byID := make(map[string]*core.Record, len(found))
	for _, q := range found {
		byID[q.Id] = q
	}
	ordered := make([]*core.Record, 0, len(ids))
	for _, id := range ids {
		if q := byID[id]; q != nil {
			ordered = append(ordered, q)
		}
	}
	return ordered
}

// Kind is an owner's kind record and the collection it is in.
type Kind struct {
	Name   string
	Record *core.Record
}

// KindsOf is the kind record of each of ownerIDs, looked up in the kind collections names by their relation field
// (questions: video_questions / text_questions by "question"; answers: video_answers / text_answers by "answer").
func KindsOf(app core.App, names []string, field string, ownerIDs []string) map[string]Kind {
	found := map[string]Kind{}
	if len(ownerIDs) == 0 {
		return found
	}
	values := make([]any, len(ownerIDs))
	for i, id := range ownerIDs {
		values[i] = id
	}
	for _, name := range names {
		records, err := app.FindAllRecords(name, dbx.In(field, values...))
		if err != nil {
			continue
		}
		for _, r := range records {
			found[r.GetString(field)] = Kind{Name: name, Record: r}
		}
	}
	return found
}

// CandidateKeyHeader carries a candidate's key (the secret of its record; the rules read x_candidate_key).
const CandidateKeyHeader = "X-Candidate-Key"

var candidateKeyPattern = regexp.MustCompile(`^[a-zA-Z0-9]{40}$`)

// IsCandidateKey reports whether value has a candidate key's shape: 40 letters and digits (migration 1732700000).
func IsCandidateKey(value string) bool {
	return candidateKeyPattern.MatchString(value)
}

// RequestCandidate is the candidate whose key the request presents, or nil.
func RequestCandidate(e *core.RequestEvent) *core.Record {
	key := e.Request.Header.Get(CandidateKeyHeader)
	if !IsCandidateKey(key) {
		return nil
	}
	return FindFirstOrNil(e.App, "candidates", "secret = {:key}", dbx.Params{"key": key})
}

// InterviewLink is the link a candidate is sent: its key, never its record id.
func InterviewLink(app core.App, candidate *core.Record) string {
	return AppURL(app) + "/candidates/" + candidate.GetString("secret")
}

// DataRequestLink is the page every candidate e-mail links to (the SPA's paths.candidates.data): what is kept of them
// and for how long, and their own withdrawal. By key, as the interview link.
func DataRequestLink(app core.App, candidate *core.Record) string {
	return InterviewLink(app, candidate) + "/data"
}

// RefuseDuplicate gives the product's words for a record a UNIQUE index would refuse anyway (with PocketBase's
// generic "Value must be unique"): a field error on field when another record of collection has the same values.
// The index stays the guarantee; this is only the message.
func RefuseDuplicate(app core.App, record *core.Record, collection string, values map[string]any, field, message string) error {
	params := dbx.Params{"self": record.Id}
	parts := make([]string, 0, len(values)+1)
	for name, value := range values {
		parts = append(parts, name+" = {:"+name+"}")
		params[name] = value
	}
	parts = append(parts, "id != {:self}")
	if FindFirstOrNil(app, collection, strings.Join(parts, " && "), params) != nil {
		return FieldError(field, message, "validation_not_unique")
	}
	return nil
}

// ConsentRequired: nothing is recorded before the candidate agreed on the start screen (candidates.consentedAt).
const ConsentRequired = "Please agree to the terms on the start page before answering."

// RequireConsent is a 403 when the candidate has not agreed yet.
func RequireConsent(candidate *core.Record) error {
	if candidate.GetString("consentedAt") == "" {
		return router.NewForbiddenError(ConsentRequired, nil)
	}
	return nil
}

// CanCreateAnswer reports whether the request may create answer (saved, not yet committed, inside txApp's
// transaction: the answers create rule sees the saved record, joins included). The one check of both the answers
// route and a take's first part.
func CanCreateAnswer(txApp core.App, info *core.RequestInfo, answer *core.Record) bool {
	collection, err := txApp.FindCachedCollectionByNameOrId("answers")
	if err != nil {
		return false
	}
	ok, _ := txApp.CanAccessRecord(answer, info, collection.CreateRule)
	return ok
}

// ClearDerivedVideoFields empties what the media worker derives from a video answer's file (only the worker, a
// superuser, writes it): a new video answer holds none of it, whatever a client sent.
func ClearDerivedVideoFields(record *core.Record) {
	record.Set("mimeType", "")
	record.Set("transcript", "")
	record.Set("transcriptStatus", "")
	record.Set("transcriptAttempts", 0)
	record.Set("durationSeconds", 0)
}

// JobAndCompanyOf is a candidate's job and the job's company, the two reads every candidate e-mail, event, page and
// audit entry starts from.
func JobAndCompanyOf(app core.App, candidate *core.Record) (job, company *core.Record, err error) {
	job, err = app.FindRecordById("jobs", candidate.GetString("job"))
	if err != nil {
		return nil, nil, err
	}
	company, err = app.FindRecordById("companies", job.GetString("company"))
	if err != nil {
		return nil, nil, err
	}
	return job, company, nil
}
