package questions

import (
	"screenroom/server/internal/platform"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
)

// A question has one kind. A kind record (video_questions, text_questions) is refused while the other kind's record,
// or another of its own kind, exists for the question, so a change of kind is a delete of the old record and a
// create of the new one (one batch).
const kindTaken = "This question already has a kind: remove it first."

// defaultPreparation is the seconds a video question gives to read and prepare before recording starts by itself,
// for one created without saying (an older client, a script), as existing questions got (migration 1733000000).
const defaultPreparation = 30

func registerQuestionKinds(app core.App) {
	app.OnRecordValidate("video_questions", "text_questions").BindFunc(func(e *core.RecordEvent) error {
		name := e.Record.Collection().Name
		other := "video_questions"
		if name == "video_questions" {
			other = "text_questions"
		}
		questionID := e.Record.GetString("question")
		if questionID != "" && platform.FindFirstOrNil(e.App, other, "question = {:q}", dbx.Params{"q": questionID}) != nil {
			return platform.FieldError("question", kindTaken, "")
		}
		if platform.FindFirstOrNil(e.App, name, "question = {:q} && id != {:id}", dbx.Params{"q": questionID, "id": e.Record.Id}) != nil {
			return platform.FieldError("question", kindTaken, "validation_not_unique")
		}
		return e.Next()
	})

	// A body that sends `preparation` (0 included) keeps it; the batch API runs this hook per item, with its body.
	app.OnRecordCreateRequest("video_questions").BindFunc(func(e *core.RecordRequestEvent) error {
		info, err := e.RequestInfo()
		if err != nil {
			return err
		}
		if _, ok := info.Body["preparation"]; !ok {
			e.Record.Set("preparation", defaultPreparation)
		}
		return e.Next()
	})
}
