package answers

import (
	"screenroom/server/internal/platform"

	"github.com/pocketbase/pocketbase/core"
)

// History stays true (schema: pb_migrations/1733050000_answer_snapshots_archive.js):
//   - every answer keeps the question as its candidate saw it (questionTitle, questionDescription, questionKind), set
//     from the question at the moment the answer is stored, however it is stored (the answers route, a superuser's
//     records or batch create, seeds): OnRecordCreate runs for every save of a new record. What a client sent for
//     these fields is overwritten;
//   - a question's kind never changes once it has answers: the kind record (video_questions / text_questions) of an
//     answered question is not deleted through the API, so the edit form's delete-and-create batch is refused, with a
//     message on the form's `kind` field;
//   - deleting never takes answers silently: a question with answers is archived instead (refused); a job or a
//     candidate with answers is deleted only when the request says so (`?deleteAnswers=true`, after the manager
//     confirmed it in the dialog that says what goes, deletions.go). Who may delete is the collections' delete rules
//     (managers of the company); files go with their records (PocketBase removes a deleted record's storage folder,
//     cascades included), and a staged take's parts, kept outside PocketBase's storage, go with its row
//     (staged_take_removal.go).
func registerHistory(app core.App) {
	app.OnRecordCreate("answers").BindFunc(snapshotQuestion)

	app.OnRecordDeleteRequest("video_questions", "text_questions").BindFunc(func(e *core.RecordRequestEvent) error {
		n, err := answersOfQuestion(e.App, e.Record.GetString("question"))
		if err != nil {
			return err
		}
		if n > 0 {
			return platform.FieldError(
				"kind",
				"Candidates have answered this question, so its kind can't change. Create a new question of the other kind instead.",
				"question_has_answers",
			)
		}
		return e.Next()
	})

	app.OnRecordDeleteRequest("questions").BindFunc(func(e *core.RecordRequestEvent) error {
		n, err := answersOfQuestion(e.App, e.Record.Id)
		if err != nil {
			return err
		}
		if n > 0 {
			return refusal("question_has_answers", "Candidates have answered this question: archive it instead, so their reviews keep it.")
		}
		// PocketBase would refuse with its own words: a job needs at least one question
		only, err := onlyQuestionOf(e.App, e.Record.Id)
		if err != nil {
			return err
		}
		if only != "" {
			return refusal("only_question_of_job", "This is the only question of the job \""+only+"\": add another question to that job first.")
		}
		return e.Next()
	})

	app.OnRecordDeleteRequest("jobs", "candidates").BindFunc(func(e *core.RecordRequestEvent) error {
		isJob := e.Record.Collection().Name == "jobs"
		var n int
		var err error
		if isJob {
			n, err = answersOfJob(e.App, e.Record.Id)
		} else {
			n, err = answersOfCandidate(e.App, e.Record.Id)
		}
		if err != nil {
			return err
		}
		if n > 0 {
			info, err := e.RequestInfo()
			if err != nil {
				return err
			}
			if info.Query["deleteAnswers"] != "true" {
				message := "This candidate has answers: confirm that they are deleted too."
				if isJob {
					message = "This job has answers: archive it, or confirm that its answers are deleted too."
				}
				return refusal("answers_not_confirmed", message)
			}
		}
		return e.Next()
	})
}

// snapshotQuestion sets the new answer's copy of its question (empty when the question is unknown).
func snapshotQuestion(e *core.RecordEvent) error {
	question := platform.FindByIdOrNil(e.App, "questions", e.Record.GetString("question"))
	if question != nil {
		e.Record.Set("questionTitle", question.GetString("title"))
		e.Record.Set("questionDescription", question.GetString("description"))
		e.Record.Set("questionKind", platform.QuestionKind(e.App, question.Id))
	} else {
		e.Record.Set("questionTitle", "")
		e.Record.Set("questionDescription", "")
		e.Record.Set("questionKind", "")
	}
	return e.Next()
}

// refusal is a 400 with a machine-readable code the SPA maps to its own words (data.delete.code).
func refusal(code, message string) error {
	return platform.FieldError("delete", message, code)
}
