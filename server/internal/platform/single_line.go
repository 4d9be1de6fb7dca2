package platform

// Single-line fields refuse CR and LF (decisions.md: "A CR/LF in a single-line field gets 'This field must be on one
// line.'"). A line break in a name, a title or an address ends up in e-mail subjects and headers, CSV exports and
// one-line screens, where it splits or forges what follows it.
//
// One rule on every way a record is written: the records API (create, update), the batch API, the hooks' and
// routes' own saves (the CSV import, internal/candidates, asks SingleLineErrorFields first, per row), the
// dashboard and a superuser alike. It runs as a validation hook, before PocketBase's own field checks, so the
// answer is a 400 whose data[field] carries this message and code (the SPA knows the code: src/lib/errors.ts). An
// update is judged on the fields it changes: a value stored before this rule stays savable until someone edits it.
//
// Multi-line on purpose (not listed): descriptions, welcome messages, comments, text answers, transcripts. Values
// only the server writes (answer snapshots, the mail queue, secrets, hashes, audit ids) are not listed either: they
// are copies of listed fields or made by the server.

import (
	"strings"

	validation "github.com/pocketbase/ozzo-validation/v4"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/hook"
	"github.com/pocketbase/pocketbase/tools/router"
)

const (
	singleLineCode    = "validation_single_line"
	singleLineMessage = "This field must be on one line."
)

// singleLineFields: collection → the single-line fields a client (manager, candidate, anyone signing up) writes.
var singleLineFields = map[string][]string{
	"users":             {"firstName", "lastName", "email"},
	"companies":         {"name", "website", "privacyUrl"},
	"jobs":              {"title", "location"},
	"questions":         {"title"},
	"candidates":        {"email", "firstName", "lastName"},
	"manager_invites":   {"email"},
	"webhook_endpoints": {"url"},
}

func registerSingleLine(app core.App) {
	collections := make([]string, 0, len(singleLineFields))
	for name := range singleLineFields {
		collections = append(collections, name)
	}
	// before the other validation hooks (the webhook URL check, the hooks' own rules) and PocketBase's field checks
	// (priority 99), so a line break is what the answer names, whatever else the value gets wrong
	app.OnRecordValidate(collections...).Bind(&hook.Handler[*core.RecordEvent]{
		Func: func(e *core.RecordEvent) error {
			if errs := singleLineErrors(e.Record); len(errs) > 0 {
				// an ApiError of its own: the records API and the batch pass it on as it is (a bare validation error
				// would reach the client as an empty "Failed to create record.")
				return router.NewBadRequestError(singleLineMessage, errs)
			}
			return e.Next()
		},
		Priority: -10,
	})
}

// singleLineErrors is the rule itself: for each listed field of the record's collection that holds a CR or LF (on
// an update, only the fields whose value changed), the field's error; nil when there is none.
func singleLineErrors(record *core.Record) validation.Errors {
	fields := singleLineFields[record.Collection().Name]
	if len(fields) == 0 {
		return nil
	}
	var original *core.Record
	if !record.IsNew() {
		original = record.Original()
	}
	var errs validation.Errors
	for _, field := range fields {
		value := record.GetString(field)
		if !strings.ContainsAny(value, "\r\n") {
			continue
		}
		if original != nil && original.GetString(field) == value {
			continue
		}
		if errs == nil {
			errs = validation.Errors{}
		}
		errs[field] = validation.NewError(singleLineCode, singleLineMessage)
	}
	return errs
}

// SingleLineErrorFields: the fields singleLineErrors refuses, by name, for the hooks (the CSV import reports such a
// row as a bad row before it spends the address's mail budget).
func SingleLineErrorFields(record *core.Record) []string {
	errs := singleLineErrors(record)
	names := make([]string, 0, len(errs))
	for _, field := range singleLineFields[record.Collection().Name] {
		if _, ok := errs[field]; ok {
			names = append(names, field)
		}
	}
	return names
}
