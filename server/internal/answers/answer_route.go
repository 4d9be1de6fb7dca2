package answers

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/pocketbase/pocketbase/apis"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/filesystem"
	"github.com/pocketbase/pocketbase/tools/router"

	"screenroom/server/internal/interview"
	"screenroom/server/internal/platform"
	"screenroom/server/internal/takes"
)

// POST /api/screenroom/answers (multipart or JSON), header X-Candidate-Key: id (client-made), question, and either
// `file` (a video answer) or `content` (a text answer). Creates the answer and its kind record in one transaction, so
// a refused kind record leaves no answer behind (rule 9), in one plain request: the batch API re-encodes every file
// it carries, which made a 20 MB answer take three times as long as a plain upload.
// Access is exactly the collections' create rules, checked on each record inside the transaction. Errors have the
// collection API's shape: 400 with data.{field}.message. A retry with the same id is refused (the id exists), never
// a second answer. 200 {answer, kind: "video_answers" | "text_answers", record}.
// A video answer's file may instead be the take staged in parts under the answer's id while it was recorded
// (internal/takes): `staged` (true), `size` (its total bytes) and `fileName` ("answer.webm" or "answer.mp4"), in JSON
// or multipart. The take must be live (not retired: replaced by a newer take or discarded, checked again inside the
// transaction that stores the answer) and the same candidate's and question's, its parts contiguous from 0 to
// exactly `size`; they are joined into one file that is stored like an uploaded one, and the take (row and dir) is
// removed on success. Anything else (no such take, someone else's, retired, a gap, another size) is 409 "The take is
// not complete on the server." and nothing is created: the client then uploads the whole file. A whole-file answer
// also removes a take staged under its id (the client's fallback after a refused part or a 409).
// Takes are counted (interview.CountTake): a video answer whose take was never staged counts one, refused (403) when
// the question has none left (its takes plus the candidate's extraTakes).
// The interview's time rules (internal/interview), 403 with a code in data.interview: withdrawn; deadline_passed
// (after the deadline, except in its grace window for what was under way before it); time_over (a text answer later
// than its opening + its time + 5 minutes); answer_too_long (a video answer's decoded length over its time + 3 s).
// The reply carries `receipt` (interview.AnswerReceipt), which the device keeps with its copy of the answer for a
// day: an answer the server lost in a restore, sent again with it (`receipt` in the body), is not judged again by its
// question's time or takes (interview/kept_answers.go); the interview's withdrawn, closed job and deadline still apply.
func registerAnswerRoute(app core.App) {
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		// the collection API allows 32 MB plus the file fields' sizes: the same for the video field
		se.Router.POST("/api/screenroom/answers", storeAnswer).Bind(apis.BodyLimit(platform.BodyBaseBytes + platform.VideoMaxBytes))
		return se.Next()
	})
}

func storeAnswer(e *core.RequestEvent) error {
	info, err := e.RequestInfo()
	if err != nil {
		return err
	}
	body := info.Body
	text := func(name string) string {
		value, _ := body[name].(string)
		return value
	}
	// The candidate is the one whose key the request presents (X-Candidate-Key); `candidate` in the body may be left
	// out or name the same candidate (by id or key). Refused before anything is read or validated, so the answer
	// says nothing about someone else's candidate (that it exists, which questions it answered): no valid key, or a
	// body naming another candidate than the key's.
	presented := platform.RequestCandidate(e)
	named := text("candidate")
	if presented == nil || (named != "" && named != presented.Id && named != presented.GetString("secret")) {
		return router.NewBadRequestError("Failed to create record.", nil)
	}
	// before the candidate agreed on the start screen, nothing is stored (403, before the body is read)
	if err := platform.RequireConsent(presented); err != nil {
		return err
	}

	var files []*filesystem.File
	if strings.HasPrefix(strings.ToLower(e.Request.Header.Get("Content-Type")), "multipart/form-data") {
		files, err = e.FindUploadedFiles("file")
		// no file part is a text answer (or a video answer missing its file, which validation reports)
		if err != nil && !errors.Is(err, http.ErrMissingFile) {
			return err
		}
	}
	_, hasContent := body["content"]
	if len(files) > 0 && hasContent {
		return router.NewBadRequestError("Send either a file or content, not both.", nil)
	}
	if len(files) > 1 {
		return router.NewBadRequestError("Send one file.", nil)
	}

	// the staged take instead of the file: joined here, before the transaction
	isStaged := body["staged"] == true || body["staged"] == "true"
	if _, hasFile := body["file"]; isStaged && (len(files) > 0 || hasContent || hasFile) {
		return router.NewBadRequestError("Send either a staged take, a file or content, not more than one.", nil)
	}
	questionID := text("question")
	kindName := "text_answers"
	if len(files) > 0 || isStaged || (!hasContent && platform.QuestionKind(e.App, questionID) == "video") {
		kindName = "video_answers"
	}
	isVideo := kindName == "video_answers"

	// Withdrawn refuses everything; after the deadline only what was under way before it is taken, within the grace
	// window: a staged take whose first part came before it, an answer to a question opened before it. A text
	// answer comes within its time (+ tolerance) from the question's opening.
	opened := interview.OpenedAt(e.App, presented.Id, questionID)
	if err := interview.RequireAnswerable(e.App, presented, startedAt(e.App, isVideo, text("id"), presented.Id, opened)); err != nil {
		return err
	}
	// an answer the server stored once and lost (a restore from the replica), sent again by the device with its
	// receipt: its question's own rules (the text's time, the takes) were met when it was first stored
	digest := answerDigest(isVideo, files, body, text("content"))
	resent := interview.ReceiptHolds(e.App, text("receipt"), text("id"), presented.Id, questionID, digest)
	askedQuestion := platform.FindByIdOrNil(e.App, "questions", questionID)
	if !isVideo && askedQuestion != nil && !resent {
		if err := interview.RequireTextInTime(e.App, presented, askedQuestion, opened); err != nil {
			return err
		}
	}

	var staged *takes.StagedFile
	if isStaged {
		staged, err = takes.StagedAnswerFile(e.App, takes.StagedRequest{
			ID: text("id"), Candidate: presented.Id, Question: questionID, Size: body["size"], FileName: text("fileName"),
		})
		if err != nil {
			return err
		}
	}

	var answer, kind *core.Record
	err = e.App.RunInTransaction(func(txApp core.App) error {
		if staged != nil {
			if err := staged.Check(txApp); err != nil {
				return err
			}
		}
		answers, err := txApp.FindCollectionByNameOrId("answers")
		if err != nil {
			return err
		}
		answer = core.NewRecord(answers)
		if id := text("id"); id != "" {
			answer.Set("id", id)
		}
		answer.Set("candidate", presented.Id)
		answer.Set("question", questionID)
		if err := txApp.Save(answer); err != nil {
			return err
		}
		// the create rule sees the saved record, inside the transaction: a refusal rolls it back before any file is
		// stored
		if !platform.CanCreateAnswer(txApp, info, answer) {
			return router.NewBadRequestError("Failed to create record.", nil)
		}

		kindCollection, err := txApp.FindCollectionByNameOrId(kindName)
		if err != nil {
			return err
		}
		kind = core.NewRecord(kindCollection)
		kind.Set("answer", answer.Id)
		if isVideo {
			// A whole file none of which was staged is a take the server sees start only now: it counts. One staged
			// under the answer's id was counted with its first part, like a staged take submitted.
			if staged == nil && !resent && !takes.WasStaged(txApp, answer.Id, presented.Id, questionID) {
				if err := interview.CountTake(txApp, presented.Id, questionID); err != nil {
					return err
				}
			}
			if len(files) > 0 {
				kind.Set("file", files[0])
			}
			if staged != nil && staged.File != nil {
				kind.Set("file", staged.File)
			}
			// what the records API's create request hooks would do (a route of its own does not trigger them)
			platform.ClearDerivedVideoFields(kind)
		} else {
			kind.Set("content", text("content"))
		}
		if err := txApp.Save(kind); err != nil {
			return err
		}
		if ok, _ := txApp.CanAccessRecord(kind, info, kindCollection.CreateRule); !ok {
			return router.NewBadRequestError("Failed to create record.", nil)
		}
		// The stored file's decoded length within the candidate's time (+ tolerance): a refusal rolls back the answer
		// and its file. Judged on the stored bytes, whichever way they came (a whole file or a staged take).
		if isVideo && askedQuestion != nil && kind.GetString("file") != "" {
			return interview.WithStoredFile(txApp, kind, "file", func(path string) error {
				return interview.RequireVideoInTime(presented, askedQuestion, takes.MediaSeconds(txApp, path, interview.ProbeSeconds*time.Second))
			})
		}
		return nil
	})
	if staged != nil {
		// a refused answer keeps its staged parts (the sweep removes them)
		staged.Finish(e.App, err == nil)
	}
	if err != nil {
		return err
	}
	// the answer is stored: the staged takes of its question are of no more use
	takes.SettleTakes(e.App, answer)
	receipt := interview.AnswerReceipt(e.App, answer.Id, presented.Id, questionID, digest)
	return e.JSON(http.StatusOK, map[string]any{"answer": answer, "kind": kindName, "record": kind, "receipt": receipt})
}

// answerDigest is what an answer's receipt binds (interview.TextDigest, interview.VideoDigest): the text, or the
// size of the file uploaded or staged.
func answerDigest(isVideo bool, files []*filesystem.File, body map[string]any, content string) string {
	if !isVideo {
		return interview.TextDigest(content)
	}
	if len(files) > 0 {
		return interview.VideoDigest(files[0].Size)
	}
	var size int64
	switch v := body["size"].(type) {
	case float64:
		size = int64(v)
	case string:
		size, _ = strconv.ParseInt(v, 10, 64)
	}
	return interview.VideoDigest(size)
}

// startedAt is when the answer's take started, for the deadline's grace: its question's opening, or the first part of
// the take staged under the answer's id (submitted, or sent whole as the client's fallback), whichever came first.
func startedAt(app core.App, isVideo bool, answerID, candidateID string, opened time.Time) time.Time {
	if !isVideo {
		return opened
	}
	row := takes.FindRow(app, answerID)
	if row == nil || row.GetString("candidate") != candidateID {
		return opened
	}
	staged, ok := platform.ParseDBTime(row.GetString("created"))
	if ok && (opened.IsZero() || staged.UnixMilli() < opened.UnixMilli()) {
		return staged
	}
	return opened
}
