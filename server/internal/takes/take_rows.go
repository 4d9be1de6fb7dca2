package takes

import (
	"screenroom/server/internal/takes/staging"

	"fmt"
	"net/http"
	"regexp"

	"screenroom/server/internal/interview"
	"screenroom/server/internal/platform"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/router"
)

// A staged take is a video take uploaded in parts while it is recorded, then turned into an answer by POST
// /api/screenroom/answers with `staged`. A take's row is live until it is retired: replaced by a newer take of its
// candidate and question, discarded (DELETE), or its question answered. A retired row stays as a tombstone (a late
// part is refused) until the hourly sweep.
//
// Who a take belongs to, whether it is live and how many bytes it was allowed: its row in the hidden collection
// `staged_takes`, decided in transactions. PocketBase runs every transaction on its one writer connection, one at a
// time, so "no row yet: insert it and retire the pair's other takes" and "the row is live: add this part's bytes if
// they fit" cannot interleave with each other. Disk I/O stays outside them (take_files.go).

const stagedTakes = "staged_takes"

var (
	takeIDPattern      = regexp.MustCompile(`^[a-z0-9]{15}$`)
	wholeNumberPattern = regexp.MustCompile(`^[0-9]{1,15}$`)
)

const (
	refusedMessage  = "You cannot record an answer to this question."
	replacedMessage = "This take was replaced by a newer one."
	// NotComplete is the 409 of a submit whose staged take the server cannot store as the answer.
	NotComplete = "The take is not complete on the server."
	// Submitted refuses a part or a take of an answer already stored.
	Submitted       = "This answer has already been submitted."
	notFoundMessage = "The take was not found."
	discardRefused  = "You cannot discard this take."
)

// ValidTakeID reports whether value has a take id's shape (the id its answer will get).
func ValidTakeID(value string) bool {
	return takeIDPattern.MatchString(value)
}

// maxTakeBytes is the video file field's size limit, in bytes (PocketBase reads 0 as 5 MB).
func maxTakeBytes(app core.App) int64 {
	collection, err := app.FindCollectionByNameOrId("video_answers")
	if err == nil {
		if field, ok := collection.Fields.GetByName("file").(*core.FileField); ok && field.MaxSize > 0 {
			return field.MaxSize
		}
	}
	return 5 * 1024 * 1024
}

func tooBig(maxBytes int64) error {
	return router.NewBadRequestError(fmt.Sprintf("This take is larger than %d MB, the most an answer may have.", maxBytes/(1024*1024)), nil)
}

// retiredError is the 409 of a take retired (replaced by a newer take of the same candidate and question, or discarded).
func retiredError() error {
	return router.NewApiError(http.StatusConflict, replacedMessage, nil)
}

// lengthRequired is the 411 of a part without a Content-Length: its bytes are reserved before they are read.
func lengthRequired() error {
	return router.NewApiError(http.StatusLengthRequired, "A part needs a Content-Length header (a chunked body is not accepted).", nil)
}

// FindRow is the take's row in staged_takes, or nil.
func FindRow(app core.App, takeID string) *core.Record {
	row, err := app.FindFirstRecordByData(stagedTakes, "take", takeID)
	if err != nil {
		return nil
	}
	return row
}

// belongsTo reports whether row is the take of candidate for question (live or not).
func belongsTo(row *core.Record, candidate, question string) bool {
	return row.GetString("candidate") == candidate && row.GetString("question") == question
}

// IsLive reports whether row is a live (not retired) take of candidate for question.
func IsLive(row *core.Record, candidate, question string) bool {
	return row != nil && !row.GetBool("retired") && belongsTo(row, candidate, question)
}

// WasStaged reports whether takeID was staged (live or retired since) as a take of candidate for question: it was
// counted.
func WasStaged(app core.App, takeID, candidate, question string) bool {
	row := FindRow(app, takeID)
	return row != nil && belongsTo(row, candidate, question)
}

// LiveTakeOf is the candidate's live take of the question (its staged_takes row), or nil.
func LiveTakeOf(app core.App, candidate, question string) *core.Record {
	return platform.FindFirstOrNil(app, stagedTakes, "candidate = {:c} && question = {:q} && retired = false", dbx.Params{"c": candidate, "q": question})
}

// Take is what the candidate's device needs to offer a take again (staging.Take).
type Take = staging.Take

// DescribeTake describes the take of row, nil when the server has no bytes of it from 0.
func DescribeTake(app core.App, row *core.Record) *Take { return staging.Describe(app, row) }

// openTake is the live take a GET /api/screenroom/takes/{takeId}... request asks for, if the request presents its
// candidate's key; else 404, the same for every other reason.
func openTake(e *core.RequestEvent) (*core.Record, *Take, error) {
	notFound := router.NewNotFoundError(notFoundMessage, nil)
	takeID := e.Request.PathValue("takeId")
	if !ValidTakeID(takeID) {
		return nil, nil, notFound
	}
	presented := platform.RequestCandidate(e)
	if presented == nil {
		return nil, nil, notFound
	}
	row := FindRow(e.App, takeID)
	if row == nil || !IsLive(row, presented.Id, row.GetString("question")) {
		return nil, nil, notFound
	}
	described := DescribeTake(e.App, row)
	if described == nil {
		return nil, nil, notFound
	}
	return row, described, nil
}

// partMarks is what the device says of the take with a part: the length recorded up to its end (nil: not said),
// and whether it is the part sent after 'Stop Recording'.
type partMarks struct {
	recordedMs *int64
	finished   bool
}

// reservePart is the ownership and byte accounting of one part of takeID, in one transaction. With claim (a first
// part whose access the caller checked: no row was there when it looked), a take without a row gets one, owned by
// candidate and question, its staging dir is made, and every other live take of the same candidate and question is
// retired: one live take per candidate and question; and the take is counted, or refused (403) when the question
// has no take left. (A row that another request inserted meanwhile is simply used: the part goes on as a later
// part.) Then, for every part: the row must exist (else 409, or 400 once the answer is stored), be the candidate's
// for the question (else 403) and not be retired (else 409); and its bytes plus length must stay within maxBytes
// (else 400), which adds length to them. Returns the ids of the takes it retired: their dirs are the caller's to
// remove, after the commit.
func reservePart(app core.App, takeID, candidate, question string, length, maxBytes int64, claim bool, marks partMarks) ([]string, error) {
	var replaced []string
	err := app.RunInTransaction(func(txApp core.App) error {
		replaced = nil
		// the take's own answer, or any answer of its candidate to its question: a question answered takes no more parts
		answerExists := func() bool {
			return platform.FindByIdOrNil(txApp, "answers", takeID) != nil ||
				platform.FindFirstOrNil(txApp, "answers", "candidate = {:c} && question = {:q}", dbx.Params{"c": candidate, "q": question}) != nil
		}
		row := FindRow(txApp, takeID)
		if row == nil && claim {
			if answerExists() {
				return router.NewBadRequestError(Submitted, nil)
			}
			if err := interview.CountTake(txApp, candidate, question); err != nil {
				return err
			}
			collection, err := txApp.FindCollectionByNameOrId(stagedTakes)
			if err != nil {
				return err
			}
			row = core.NewRecord(collection)
			row.Set("take", takeID)
			// when the take started, on the server's clock: the deadline's grace window is judged from it
			row.Set("created", platform.NowText(txApp))
			row.Set("candidate", candidate)
			row.Set("question", question)
			row.Set("bytes", 0)
			row.Set("retired", false)
			if err := txApp.Save(row); err != nil {
				return err
			}
			others, err := txApp.FindRecordsByFilter(stagedTakes,
				"candidate = {:candidate} && question = {:question} && retired = false && id != {:id}", "", 0, 0,
				dbx.Params{"candidate": candidate, "question": question, "id": row.Id})
			if err != nil {
				return err
			}
			for _, other := range others {
				other.Set("retired", true)
				if err := txApp.Save(other); err != nil {
					return err
				}
				replaced = append(replaced, other.GetString("take"))
			}
			if err := makeTakeDir(txApp, takeID); err != nil {
				return err
			}
		}
		if row == nil {
			if answerExists() {
				return router.NewBadRequestError(Submitted, nil)
			}
			return retiredError()
		}
		if !belongsTo(row, candidate, question) {
			return router.NewForbiddenError(refusedMessage, nil)
		}
		if row.GetBool("retired") {
			return retiredError()
		}
		if answerExists() {
			return router.NewBadRequestError(Submitted, nil)
		}
		bytes := int64(row.GetInt("bytes"))
		if bytes+length > maxBytes {
			return tooBig(maxBytes)
		}
		row.Set("bytes", bytes+length)
		if marks.recordedMs != nil {
			row.Set("recordedMs", max(int64(row.GetInt("recordedMs")), *marks.recordedMs))
		}
		if marks.finished {
			row.Set("finished", true)
		}
		return txApp.Save(row)
	})
	if err != nil {
		return nil, err
	}
	return replaced, nil
}

// retireTake discards candidate's take takeID: its row is retired (a tombstone), so a part sent late is refused
// (409) instead of starting the take again. found is false for an unknown take (nothing to do); 403 when it is
// another candidate's. The dir is the caller's to remove, after the commit.
func retireTake(app core.App, takeID, candidate string) (found bool, err error) {
	err = app.RunInTransaction(func(txApp core.App) error {
		found = false
		row := FindRow(txApp, takeID)
		if row == nil {
			return nil
		}
		if row.GetString("candidate") != candidate {
			return router.NewForbiddenError(discardRefused, nil)
		}
		found = true
		if row.GetBool("retired") {
			return nil
		}
		row.Set("retired", true)
		return txApp.Save(row)
	})
	return found, err
}

// RetireTakesOf retires every live take of candidate for question (after the question was answered, whatever the
// way: its rows tombstones, so a late part is refused) and removes their dirs. Returns the retired take ids.
func RetireTakesOf(app core.App, candidate, question string) ([]string, error) {
	var retired []string
	err := app.RunInTransaction(func(txApp core.App) error {
		retired = nil
		rows, err := txApp.FindRecordsByFilter(stagedTakes, "candidate = {:c} && question = {:q} && retired = false", "", 0, 0,
			dbx.Params{"c": candidate, "q": question})
		if err != nil {
			return err
		}
		for _, row := range rows {
			row.Set("retired", true)
			if err := txApp.Save(row); err != nil {
				return err
			}
			retired = append(retired, row.GetString("take"))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	RemoveTakesQuietly(app, retired)
	return retired, nil
}
