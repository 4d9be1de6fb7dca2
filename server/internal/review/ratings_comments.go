package review

import (
	"math"
	"unicode/utf8"

	"screenroom/server/internal/platform"

	"github.com/pocketbase/pocketbase/core"
)

// registerRatingRules: each manager rates each answer once, 1 to 5 whole stars, for the answer's own candidate. The
// rules already hold a manager to their own ratings of their own company's answers (and refuse a candidate that is
// not the answer's); these are the product's words for what the schema would refuse with PocketBase's, and the same
// checks for a superuser's tools.
func registerRatingRules(app core.App) {
	app.OnRecordValidate("ratings").BindFunc(func(e *core.RecordEvent) error {
		stars := e.Record.GetFloat("stars")
		if !(stars >= 1 && stars <= 5 && math.Floor(stars) == stars) {
			return platform.FieldError("stars", "Choose 1 to 5 stars.", "validation_invalid_value")
		}
		answer := platform.FindByIdOrNil(e.App, "answers", e.Record.GetString("answer"))
		if answer != nil && answer.GetString("candidate") != e.Record.GetString("candidate") {
			return platform.FieldError("candidate", "This answer is not this candidate's.", "validation_invalid_value")
		}
		values := map[string]any{"answer": e.Record.GetString("answer"), "manager": e.Record.GetString("manager")}
		if err := platform.RefuseDuplicate(e.App, e.Record, "ratings", values, "answer", "You have already rated this answer."); err != nil {
			return err
		}
		return e.Next()
	})
}

// registerCommentRules: a comment's text is trimmed before it is validated and stored; then it must hold 1 to 2,000
// characters (counted as PocketBase counts a text field's length: Unicode code points). Whitespace alone is refused
// on `text`.
func registerCommentRules(app core.App) {
	app.OnRecordCreate("comments").BindFunc(func(e *core.RecordEvent) error {
		e.Record.Set("text", platform.JSTrim(e.Record.GetString("text")))
		return e.Next()
	})
	app.OnRecordUpdate("comments").BindFunc(func(e *core.RecordEvent) error {
		e.Record.Set("text", platform.JSTrim(e.Record.GetString("text")))
		return e.Next()
	})
	app.OnRecordValidate("comments").BindFunc(func(e *core.RecordEvent) error {
		text := platform.JSTrim(e.Record.GetString("text"))
		if text == "" {
			return platform.FieldError("text", "Please write a comment.", "validation_required")
		}
		if utf8.RuneCountInString(text) > 2000 {
			return platform.FieldError("text", "A comment must be at most 2,000 characters.", "validation_max_text_constraint")
		}
		return e.Next()
	})
}
