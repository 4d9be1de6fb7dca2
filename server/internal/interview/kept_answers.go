package interview

// The candidate's device keeps each confirmed answer for a day (src/features/interview/upload/answer-store.ts) as the
// only other copy of what a restore from the replica loses: about the last second before the server's disk was lost
// (docs/decisions/device-keeps-confirmed-answers.md).
//
// POST /api/screenroom/interviews/{key}/kept-answers { answers: [{ id, question }] }: which of the answers this
// device kept the server holds no answer for. 200 { missing: [id] }: an entry is missing when its question is one of
// the candidate's job's questions and the candidate has no answer to it (an answer is one per question, so whatever
// id the server holds, it holds that question's answer). Only the candidate's own questions are answered for: an
// entry naming another job's question, or an id of the wrong shape, is left out, as if held, and no answer of
// another candidate is ever looked up, so the route tells nothing of anyone else's answers or ids. A withdrawn
// invitation, a closed job, or a deadline with its grace window over answers { missing: [] }: what would be sent
// again would be refused. Within the grace window the answers route decides (an answer to a question opened before
// the deadline is taken), and the device says nothing of a refusal. Only the key holder (path and X-Candidate-Key);
// anyone else, and a candidate who withdrew and had their answers deleted, gets the invalid-link 404.
//
// The answers route hands out a receipt with each answer it stores (AnswerReceipt); a device sending a kept answer
// again presents it, and an answer with a receipt that holds is not judged again by the rules of its question (the
// text's time, the takes counted), which it met when it was first stored: only the interview's (withdrawn, closed
// job, deadline) still apply.

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/apis"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/router"

	"screenroom/server/internal/platform"
)

// KeptAnswersMax is how many kept answers one request may ask about: more than any job's questions.
const KeptAnswersMax = 200

// keptAnswersMaxBytes: KeptAnswersMax entries of two 15-character ids, quoted, with their names.
const keptAnswersMaxBytes = 16 * 1024

// ReceiptValidity is how long after it was stored an answer's receipt lets it be sent again: the device's day, and an
// hour for a device clock that runs behind.
const ReceiptValidity = 25 * time.Hour

var recordID = regexp.MustCompile(`^[a-z0-9]{15}$`)

func registerKeptAnswers(app core.App) {
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		se.Router.POST("/api/screenroom/interviews/{id}/kept-answers", keptAnswers).Bind(apis.BodyLimit(keptAnswersMaxBytes))
		return se.Next()
	})
}

type keptAnswer struct {
	ID       string `json:"id"`
	Question string `json:"question"`
}

func keptAnswers(e *core.RequestEvent) error {
	candidate := keyHolder(e)
	if candidate == nil {
		return linkNotValid(e)
	}
	var body struct {
		Answers []keptAnswer `json:"answers"`
	}
	if err := json.NewDecoder(e.Request.Body).Decode(&body); err != nil {
		return router.NewBadRequestError("Send { answers: [{ id, question }] }.", nil)
	}
	if len(body.Answers) > KeptAnswersMax {
		return platform.FieldError("answers", "Ask about at most "+strconv.Itoa(KeptAnswersMax)+" answers at once.", "validation_too_many")
	}
	e.Response.Header().Set("Cache-Control", "no-store")
	missing, err := MissingKeptAnswers(e.App, candidate, body.Answers)
	if err != nil {
		return err
	}
	return e.JSON(http.StatusOK, map[string][]string{"missing": missing})
}

// MissingKeptAnswers is the ids of kept answers whose question, one of the candidate's job's, the candidate has no
// answer to; none when nothing could be answered any more (RequireAnswerable with the earliest start there is).
func MissingKeptAnswers(app core.App, candidate *core.Record, kept []keptAnswer) ([]string, error) {
	missing := []string{}
	if RequireAnswerable(app, candidate, time.UnixMilli(1)) != nil {
		return missing, nil
	}
	job, err := app.FindRecordById("jobs", candidate.GetString("job"))
	if err != nil {
		return missing, nil
	}
	asked := job.GetStringSlice("questions")
	var answered []string
	err = app.DB().NewQuery("SELECT question FROM answers WHERE candidate = {:c}").
		Bind(dbx.Params{"c": candidate.Id}).Column(&answered)
	if err != nil {
		return nil, err
	}
	for _, entry := range kept {
		if !recordID.MatchString(entry.ID) || !slices.Contains(asked, entry.Question) || slices.Contains(answered, entry.Question) {
			continue
		}
		if !slices.Contains(missing, entry.ID) {
			missing = append(missing, entry.ID)
		}
	}
	return missing, nil
}

// TextDigest is what a receipt binds of a text answer: its content.
func TextDigest(content string) string {
	sum := sha256.Sum256([]byte(content))
	return "text:" + hex.EncodeToString(sum[:])
}

// VideoDigest is what a receipt binds of a video answer: its size (its length is judged again on the bytes sent).
func VideoDigest(size int64) string {
	return "video:" + strconv.FormatInt(size, 10)
}

// receiptKey is the key receipts are signed with, derived from the superusers' token secret: kept in data.db, so a
// restore from the replica keeps it, and rotating that secret voids every receipt (a resend is then judged as new).
func receiptKey(app core.App) []byte {
	superusers, err := app.FindCachedCollectionByNameOrId(core.CollectionNameSuperusers)
	if err != nil || superusers.AuthToken.Secret == "" {
		return nil
	}
	mac := hmac.New(sha256.New, []byte(superusers.AuthToken.Secret))
	mac.Write([]byte("screenroom answer receipt"))
	return mac.Sum(nil)
}

func receiptMAC(key []byte, atMs int64, answerID, candidateID, questionID, digest string) string {
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(strings.Join([]string{"v1", strconv.FormatInt(atMs, 10), answerID, candidateID, questionID, digest}, "|")))
	return base64.RawURLEncoding.EncodeToString(mac.Sum(nil))
}

// signReceipt: "v1.<ms stored>.<mac>".
func signReceipt(key []byte, at time.Time, answerID, candidateID, questionID, digest string) string {
	atMs := at.UnixMilli()
	return "v1." + strconv.FormatInt(atMs, 10) + "." + receiptMAC(key, atMs, answerID, candidateID, questionID, digest)
}

// receiptHolds: the receipt was signed with key for exactly this answer, and is at most ReceiptValidity old at now
// (and not from the future, beyond a minute's clock difference).
func receiptHolds(key []byte, receipt string, now time.Time, answerID, candidateID, questionID, digest string) bool {
	if len(key) == 0 {
		return false
	}
	parts := strings.Split(receipt, ".")
	if len(parts) != 3 || parts[0] != "v1" {
		return false
	}
	atMs, err := strconv.ParseInt(parts[1], 10, 64)
	if err != nil {
		return false
	}
	age := now.UnixMilli() - atMs
	if age < -time.Minute.Milliseconds() || age > ReceiptValidity.Milliseconds() {
		return false
	}
	return hmac.Equal([]byte(parts[2]), []byte(receiptMAC(key, atMs, answerID, candidateID, questionID, digest)))
}

// AnswerReceipt is the receipt of an answer just stored: the device keeps it with its copy.
func AnswerReceipt(app core.App, answerID, candidateID, questionID, digest string) string {
	key := receiptKey(app)
	if key == nil {
		return ""
	}
	return signReceipt(key, platform.Now(app), answerID, candidateID, questionID, digest)
}

// ReceiptHolds is whether receipt is one AnswerReceipt gave this very answer within ReceiptValidity.
func ReceiptHolds(app core.App, receipt, answerID, candidateID, questionID, digest string) bool {
	if receipt == "" {
		return false
	}
	return receiptHolds(receiptKey(app), receipt, platform.Now(app), answerID, candidateID, questionID, digest)
}
