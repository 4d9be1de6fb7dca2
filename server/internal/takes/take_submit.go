package takes

import (
	"math"
	"net/http"

	"screenroom/server/internal/platform"

	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/filesystem"
	"github.com/pocketbase/pocketbase/tools/router"
	"github.com/pocketbase/pocketbase/tools/security"
)

// A staged take becomes an answer's file (POST /api/screenroom/answers with `staged`) in one place: StagedAnswerFile
// before and during the transaction that stores the answer, SettleTakes after it. (The answers route is still JS,
// lib/take-submit.js, on the same files, lock and submit mark, until it is ported onto these.)

// lockSubmit holds the one submit of a take at a time: joining a take copied all its bytes, and parallel submits of
// one take each made their own copy (eight of a 30 MB take peaked at 270 MB). Returns a release function, or nil
// when another submit of the take is running (the caller answers 409; the client's retry comes after it).
func lockSubmit(app core.App, takeID string) func() {
	key := submitKey(takeID)
	mine := security.RandomString(16)
	if held, _ := app.Store().GetOrSet(key, func() any { return mine }).(string); held != mine {
		return nil
	}
	return func() { app.Store().Remove(key) }
}

// wholeNumber is a request's whole number (JSON number, or digits in a form); false when it is not one.
func wholeNumber(value any) (int64, bool) {
	switch v := value.(type) {
	case string:
		if !wholeNumberPattern.MatchString(v) {
			return 0, false
		}
		var n int64
		for _, c := range v {
			n = n*10 + int64(c-'0')
		}
		return n, true
	case float64:
		if v >= 0 && v == math.Trunc(v) && v <= math.MaxInt64/2 {
			return int64(v), true
		}
	case int:
		if v >= 0 {
			return int64(v), true
		}
	case int64:
		if v >= 0 {
			return v, true
		}
	}
	return 0, false
}

// StagedRequest is what an answer from a staged take says of it: the answer's id (the take's), candidate and
// question, and the take's total size (a JSON number or digits) and file name.
type StagedRequest struct {
	ID        string
	Candidate string
	Question  string
	Size      any
	FileName  string
}

// StagedFile is a staged take joined into one file for its answer.
type StagedFile struct {
	// File is the answer's file to save.
	File    *filesystem.File
	request StagedRequest
	joined  *joinedTake
	release func()
}

// Check, inside the transaction that stores the answer, refuses (409) a take retired since it was joined
// (transactions run one at a time, so it holds until the commit).
func (s *StagedFile) Check(txApp core.App) error {
	if !IsLive(FindRow(txApp, s.request.ID), s.request.Candidate, s.request.Question) {
		return router.NewApiError(http.StatusConflict, NotComplete, nil)
	}
	return nil
}

// Finish ends the submit after the transaction, whatever its outcome, and puts the take back as it was if the answer
// was not stored (the parts stay for a retry).
func (s *StagedFile) Finish(app core.App, stored bool) {
	defer s.release()
	if stored {
		return
	}
	if err := s.joined.cleanup(); err != nil {
		app.Logger().Warn("could not put back a staged take after a failed submit", "take", s.request.ID, "error", err.Error())
	}
}

// StagedAnswerFile is the one way a staged take becomes an answer's file. The take is the one staged under the
// answer's id. Refuses (400) a size that is not a whole number of bytes and a file name other than answer.webm or
// answer.mp4. Returns nil when an answer with that id is stored already (a retry whose first response was lost: the
// caller lets the save refuse it, as it would the same retry with its file). Otherwise joins the parts of the
// candidate's live take of the question, exactly size bytes from 0, into one file, or answers 409 NotComplete (no
// such take, someone else's, retired, a gap, another size, or another submit of it running). The caller calls
// Check inside the transaction that stores the answer, and Finish after it.
func StagedAnswerFile(app core.App, request StagedRequest) (*StagedFile, error) {
	size, ok := wholeNumber(request.Size)
	if !ok {
		return nil, router.NewBadRequestError("The size must be the take's total bytes.", nil)
	}
	if request.FileName != "answer.webm" && request.FileName != "answer.mp4" {
		return nil, router.NewBadRequestError(`The file name must be "answer.webm" or "answer.mp4".`, nil)
	}
	takeID := request.ID
	if !ValidTakeID(takeID) {
		return nil, router.NewBadRequestError("The id of an answer from a staged take is 15 characters a-z and 0-9.", nil)
	}
	if platform.FindByIdOrNil(app, "answers", takeID) != nil {
		return nil, nil
	}
	release := lockSubmit(app, takeID)
	if release == nil {
		return nil, router.NewApiError(http.StatusConflict, NotComplete, nil)
	}
	var joined *joinedTake
	var err error
	if IsLive(FindRow(app, takeID), request.Candidate, request.Question) {
		joined, err = assembleParts(app, takeID, size, request.FileName)
	}
	if joined == nil {
		release()
		if err != nil {
			return nil, err
		}
		return nil, router.NewApiError(http.StatusConflict, NotComplete, nil)
	}
	return &StagedFile{File: joined.file, request: request, joined: joined, release: release}, nil
}

// SettleTakes runs after answer was stored (whatever the way): its staged take, if it is its candidate's (the one it
// was joined from, or one the whole file replaces: the client's fallback), is of no more use, row and dir; and every
// other take of its question is retired (an answered question takes no more parts). Failures are logged, never
// returned: the answer is stored, and the sweep removes what is left.
func SettleTakes(app core.App, answer *core.Record) {
	candidate := answer.GetString("candidate")
	warn := func(err error) {
		if err != nil {
			app.Logger().Warn("could not remove the staged takes of a stored answer", "answer", answer.Id, "error", err.Error())
		}
	}
	if row := FindRow(app, answer.Id); row != nil && row.GetString("candidate") == candidate {
		warn(removeTake(app, answer.Id))
		warn(app.Delete(row))
	}
	_, err := RetireTakesOf(app, candidate, answer.GetString("question"))
	warn(err)
}
