package takes

import (
	"errors"
	"net/http"
	"strconv"
	"time"

	"screenroom/server/internal/interview"
	"screenroom/server/internal/platform"

	"github.com/pocketbase/pocketbase/apis"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/router"
)

// Staged takes: the interview uploads a video take in parts while it is being recorded (MediaRecorder gives a chunk
// a second), so 'Submit answer' only has to send POST /api/screenroom/answers with `staged`. Staged parts are not an
// answer: only their own candidate reads them back (to offer a take again after a crash, GET below), and a take
// never submitted is removed once the interview can no longer be answered (take_sweep.go).
func registerTakeRoutes(app core.App) {
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		se.Router.PUT("/api/screenroom/takes/{takeId}/parts/{offset}", putPart).Bind(apis.BodyLimit(platform.PartMaxBytes))
		se.Router.DELETE("/api/screenroom/takes/{takeId}", deleteTake)
		se.Router.GET("/api/screenroom/takes/{takeId}", getTake)
		se.Router.GET("/api/screenroom/takes/{takeId}/parts/{offset}", getPart)
		return se.Next()
	})
}

const badTakeID = "A take id is 15 characters a-z and 0-9."

// putPart: PUT /api/screenroom/takes/{takeId}/parts/{offset}?question={questionId}, header X-Candidate-Key, body:
// the part's raw bytes (at most platform.PartMaxBytes, with a Content-Length). takeId is the id the answer will get;
// offset is the part's byte offset in the take. Who may: exactly whoever the answers create rule lets create the
// answer {id: takeId, candidate: the header's candidate, question}, checked in full on a take's first part, which
// gives the take its row in staged_takes and retires the candidate's earlier take of the same question (one live
// take per candidate and question); later parts must bring the same candidate and question. Every part's bytes are
// reserved on the row before they are read, all parts of the take together (retries included) at most the video
// field's size limit. A retried offset replaces the part. Optional query values, what the device says of the take
// with this part: `ms`, the length recorded up to the end of this part (whole milliseconds), and `last=1` for the
// part sent after 'Stop Recording' (a finished take; one without it was interrupted). A take's first part counts a
// take of the question, refused (403) when the question has none left (its takes plus the candidate's extraTakes).
// 403 with a code in data.interview: withdrawn; deadline_passed for a first part after the deadline, or a later part
// after the grace window. 200 {take, offset, size}.
// 400: a malformed id, offset or length, no question, the answer already submitted, the take over the video size
// limit (or not a video question); 403: not this candidate's to record, or no take left; 409: the take was retired
// (replaced by a newer one, or discarded); 411: no Content-Length (a chunked body); 413: a part over 16 MB.
func putPart(e *core.RequestEvent) error {
	takeID := e.Request.PathValue("takeId")
	offsetText := e.Request.PathValue("offset")
	if !ValidTakeID(takeID) {
		return router.NewBadRequestError(badTakeID, nil)
	}
	if !wholeNumberPattern.MatchString(offsetText) {
		return router.NewBadRequestError("The offset must be a whole number of bytes, 0 or more.", nil)
	}
	offset, _ := strconv.ParseInt(offsetText, 10, 64)
	query := e.Request.URL.Query()
	question := query.Get("question")
	if question == "" {
		return router.NewBadRequestError("The question is required.", nil)
	}
	presented := platform.RequestCandidate(e)
	if presented == nil {
		return router.NewForbiddenError(refusedMessage, nil)
	}
	// before the candidate agreed on the start screen, no byte is staged
	if err := platform.RequireConsent(presented); err != nil {
		return err
	}
	candidate := presented.Id
	// withdrawn refuses every part; after the deadline no take starts, and a take whose first part came before it
	// goes on within the grace window (its row's `created`, on the server's clock)
	var startedAt time.Time
	if started := FindRow(e.App, takeID); started != nil && started.GetString("candidate") == candidate {
		startedAt, _ = platform.ParseDBTime(started.GetString("created"))
	}
	if err := interview.RequireAnswerable(e.App, presented, startedAt); err != nil {
		return err
	}
	if platform.FindByIdOrNil(e.App, "answers", takeID) != nil {
		return router.NewBadRequestError(Submitted, nil)
	}
	maxBytes := maxTakeBytes(e.App)
	if offset > maxBytes {
		return tooBig(maxBytes)
	}
	// the bytes are reserved before they are read: their number must be known (-1: a chunked body)
	length := e.Request.ContentLength
	if length < 0 {
		return lengthRequired()
	}
	if offset+length > maxBytes {
		return tooBig(maxBytes)
	}

	claim := FindRow(e.App, takeID) == nil
	if claim {
		allowed, err := mayRecord(e, takeID, candidate, question, length)
		if err != nil {
			return err
		}
		if !allowed {
			return router.NewForbiddenError(refusedMessage, nil)
		}
		if platform.QuestionKind(e.App, question) != "video" {
			return router.NewBadRequestError("This question does not take a video answer.", nil)
		}
	}

	// ownership and bytes, in one transaction; the takes this one replaced lose their dirs after it
	ms := query.Get("ms")
	marks := partMarks{finished: query.Get("last") == "1"}
	if ms != "" {
		if !wholeNumberPattern.MatchString(ms) {
			return router.NewBadRequestError("The recorded length must be a whole number of milliseconds.", nil)
		}
		recorded, _ := strconv.ParseInt(ms, 10, 64)
		marks.recordedMs = &recorded
	}
	replaced, err := reservePart(e.App, takeID, candidate, question, length, maxBytes, claim, marks)
	if err != nil {
		return err
	}
	RemoveTakesQuietly(e.App, replaced)

	size, err := writePart(e.App, takeID, offset, e.Request.Body, length)
	if err != nil {
		return err
	}
	return e.JSON(http.StatusOK, struct {
		Take   string `json:"take"`
		Offset int64  `json:"offset"`
		Size   int64  `json:"size"`
	}{takeID, offset, size})
}

var errRollback = errors.New("rollback")

// mayRecord is the answers create rule on the answer a take's first part would become, decided inside a
// transaction that is always rolled back (the rule sees the saved record, as on the answers route). A validation
// error (e.g. the question already answered) is the 400 it would be.
func mayRecord(e *core.RequestEvent, takeID, candidate, question string, length int64) (bool, error) {
	// The body is the part's bytes, which RequestInfo would try (and fail) to parse as a form: PocketBase's own
	// request info (auth, headers, query) with the body left out.
	e.Request.ContentLength = 0
	info, err := e.RequestInfo()
	e.Request.ContentLength = length
	if err != nil {
		return false, err
	}
	allowed := false
	err = e.App.RunInTransaction(func(txApp core.App) error {
		collection, err := txApp.FindCollectionByNameOrId("answers")
		if err != nil {
			return err
		}
		answer := core.NewRecord(collection)
		answer.Set("id", takeID)
		answer.Set("candidate", candidate)
		answer.Set("question", question)
		if err := txApp.Save(answer); err != nil {
			return err
		}
		allowed = platform.CanCreateAnswer(txApp, info, answer)
		return errRollback
	})
	if err != nil && !errors.Is(err, errRollback) {
		return false, err
	}
	return allowed, nil
}

// deleteTake: DELETE /api/screenroom/takes/{takeId}, header X-Candidate-Key: discards a staged take (its candidate
// only, 403 for anyone else). Its row stays as a tombstone (retired) until the sweep, so a part that arrives late is
// refused (409) rather than starting the take again. An unknown take is 204 as well, so a repeat is harmless.
func deleteTake(e *core.RequestEvent) error {
	takeID := e.Request.PathValue("takeId")
	if !ValidTakeID(takeID) {
		return router.NewBadRequestError(badTakeID, nil)
	}
	presented := platform.RequestCandidate(e)
	if presented == nil {
		return router.NewForbiddenError(discardRefused, nil)
	}
	found, err := retireTake(e.App, takeID, presented.Id)
	if err != nil {
		return err
	}
	if found {
		RemoveTakesQuietly(e.App, []string{takeID})
	}
	return e.NoContent(http.StatusNoContent)
}

// getTake: GET /api/screenroom/takes/{takeId}, header X-Candidate-Key: the candidate's own live take, to offer it
// again after a reload, a crash or on another device: 200 {question, id, bytes, parts: [{offset, size}], recordedMs,
// finished, savedAt}, `bytes` and `parts` contiguous from 0. Only the take's own candidate reads it, and only while
// it is live (not retired, its question unanswered: an answer removes it); anyone else, and any other take, gets the
// same 404.
func getTake(e *core.RequestEvent) error {
	row, take, err := openTake(e)
	if err != nil {
		return err
	}
	return e.JSON(http.StatusOK, struct {
		Question string `json:"question"`
		*Take
	}{row.GetString("question"), take})
}

// getPart: GET /api/screenroom/takes/{takeId}/parts/{offset}: one of the parts getTake lists, its bytes.
func getPart(e *core.RequestEvent) error {
	_, take, err := openTake(e)
	if err != nil {
		return err
	}
	offset := e.Request.PathValue("offset")
	var part *Part
	for i := range take.Parts {
		if strconv.FormatInt(take.Parts[i].Offset, 10) == offset {
			part = &take.Parts[i]
			break
		}
	}
	if part == nil {
		return router.NewNotFoundError(notFoundMessage, nil)
	}
	reader, err := partReader(e.App, take.ID, part.Offset, part.Size)
	if err != nil {
		return err
	}
	if reader == nil {
		return router.NewNotFoundError(notFoundMessage, nil)
	}
	defer reader.Close()
	e.Response.Header().Set("Cache-Control", "no-store")
	e.Response.Header().Set("Content-Length", strconv.FormatInt(part.Size, 10))
	return e.Stream(http.StatusOK, "application/octet-stream", reader)
}
