package answers

import (
	"regexp"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/filesystem"
	"github.com/pocketbase/pocketbase/tools/router"

	"screenroom/server/internal/platform"
)

// Business rule 9: an answer's kind matches its question's kind, one kind record per answer; a new video answer
// waits for the media worker (transcriptStatus pending). That a candidate answers only its own job's questions, once,
// is the create rule plus the unique index on (candidate, question).

func registerAnswerRules(app core.App) {
	app.OnRecordValidate("answers").BindFunc(func(e *core.RecordEvent) error {
		values := map[string]any{"candidate": e.Record.GetString("candidate"), "question": e.Record.GetString("question")}
		if err := platform.RefuseDuplicate(e.App, e.Record, "answers", values, "question", "This question has already been answered"); err != nil {
			return err
		}
		return e.Next()
	})

	app.OnRecordValidate("video_answers", "text_answers").BindFunc(func(e *core.RecordEvent) error {
		if err := refuseWrongKind(e.App, e.Record); err != nil {
			return err
		}
		return e.Next()
	})

	app.OnRecordCreate("video_answers").BindFunc(func(e *core.RecordEvent) error {
		// the one place a new video answer becomes pending (a superuser's create may bring its own status)
		if e.Record.GetString("transcriptStatus") == "" {
			e.Record.Set("transcriptStatus", "pending")
		}
		if e.Record.GetString("mimeType") == "" {
			if name := newFileName(e.Record.Get("file")); name != "" {
				mimeType := "video/webm"
				if mp4Name.MatchString(name) {
					mimeType = "video/mp4"
				}
				e.Record.Set("mimeType", mimeType)
			}
		}
		return e.Next()
	})

	// An answer exists only with its kind record: candidates store answers through POST /api/screenroom/answers,
	// which creates both in one transaction. The records API and the batch API (which runs these same request hooks
	// per item) would store a bare answer that counts its question as answered, or a kind record of the client's
	// making: refused for everyone but superusers (seed scripts, tools).
	app.OnRecordCreateRequest("answers", "video_answers", "text_answers").BindFunc(func(e *core.RecordRequestEvent) error {
		if !e.HasSuperuserAuth() {
			return router.NewBadRequestError("Answers are stored with POST /api/screenroom/answers.", nil)
		}
		return e.Next()
	})
}

var mp4Name = regexp.MustCompile(`(?i)\.mp4$`)

// refuseWrongKind: a kind record of the other kind than its answer's question, or a second kind record of an answer.
func refuseWrongKind(app core.App, record *core.Record) error {
	name := record.Collection().Name
	kind, other := "text", "video_answers"
	if name == "video_answers" {
		kind, other = "video", "text_answers"
	}
	answer := platform.FindByIdOrNil(app, "answers", record.GetString("answer"))
	if answer == nil {
		return nil
	}
	if platform.QuestionKind(app, answer.GetString("question")) != kind {
		return platform.FieldError("answer", "This question does not take a "+kind+" answer.", "")
	}
	if platform.FindFirstOrNil(app, other, "answer = {:a}", dbx.Params{"a": answer.Id}) != nil ||
		platform.FindFirstOrNil(app, name, "answer = {:a} && id != {:id}", dbx.Params{"a": answer.Id, "id": record.Id}) != nil {
		return platform.FieldError("answer", "This question has already been answered", "validation_not_unique")
	}
	return nil
}

// newFileName is the name of a file being uploaded into a file field (the first of several), or "".
func newFileName(value any) string {
	switch v := value.(type) {
	case *filesystem.File:
		return v.Name
	case []any:
		if len(v) > 0 {
			return newFileName(v[0])
		}
	case []*filesystem.File:
		if len(v) > 0 {
			return v[0].Name
		}
	}
	return ""
}
