package interview

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"

	"screenroom/server/internal/lifecycle"
	"screenroom/server/internal/mail"
	"screenroom/server/internal/platform"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
)

// The candidate's own choices on their link: the language of their screens and e-mails, and their withdrawal.
//
// POST /api/screenroom/interviews/{key}/language { language }: the switcher's choice, remembered for the link
// (candidates.language, which no client writes through the records API: pipeline/server_fields.go); every e-mail to
// the candidate follows it from then on. 204; 400 with a field error on `language` for a language not offered. On a
// withdrawn link it sets the language the link's withdrawn answer is given in.
//
// POST /api/screenroom/interviews/{key}/withdraw: 'Withdraw and delete my answers' (the SPA confirms first). The
// erasure a manager's is (lifecycle.Withdraw: every store, files, search, queued e-mails, log lines), logged as the
// candidate's act; in the same transaction the link is remembered as withdrawn (withdrawn_links: the key's SHA-256,
// never the key, and the language) and every manager of the company is mailed that a candidate withdrew from the job,
// without their name or address. 200 { answers, videos }. A second withdrawal finds nobody: 404. Allowed whatever
// the interview's state (a passed deadline, a closed job, an invitation a manager withdrew): the right to have one's
// data deleted does not close with the interview.
//
// Both are for the holder of the key only (in the path and in the X-Candidate-Key header, keyHolder): anyone else
// gets the invalid-link 404 and changes nothing. The withdrawal's successful request is kept out of PocketBase's
// request log, whose line would hold the key after the erasure removed every other.

const withdrawnLinks = "withdrawn_links"

// LanguageMessage is the refusal of a language that is not offered.
const LanguageMessage = "Choose one of the languages offered."

// withdrawnLinkHash is how withdrawn_links names a key.
func withdrawnLinkHash(key string) string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:])
}

// findWithdrawnLink is the withdrawn_links row of key, or nil.
func findWithdrawnLink(app core.App, key string) *core.Record {
	if !platform.IsCandidateKey(key) {
		return nil
	}
	return platform.FindFirstOrNil(app, withdrawnLinks, "keyHash = {:hash}", dbx.Params{"hash": withdrawnLinkHash(key)})
}

// withdrawnAnswer is the interview read of a withdrawn link.
func withdrawnAnswer(row *core.Record) map[string]string {
	language := row.GetString("language")
	if !platform.IsLanguage(language) {
		language = platform.DefaultLanguage
	}
	return map[string]string{"withdrawnAt": row.GetString("created"), "language": language}
}

// withdrawnKeyHolder is the withdrawn_links row of the key in the path when the header presents the same key, or nil.
func withdrawnKeyHolder(e *core.RequestEvent) *core.Record {
	key := e.Request.PathValue("id")
	if e.Request.Header.Get(platform.CandidateKeyHeader) != key {
		return nil
	}
	return findWithdrawnLink(e.App, key)
}

func interviewLanguage(e *core.RequestEvent) error {
	candidate := keyHolder(e)
	var withdrawn *core.Record
	if candidate == nil {
		if withdrawn = withdrawnKeyHolder(e); withdrawn == nil {
			return linkNotValid(e)
		}
	}
	var body struct {
		Language string `json:"language"`
	}
	if err := e.BindBody(&body); err != nil || !platform.IsLanguage(body.Language) {
		return platform.FieldError("language", LanguageMessage, "validation_invalid_language")
	}
	if withdrawn != nil {
		withdrawn.Set("language", body.Language)
		if err := e.App.Save(withdrawn); err != nil {
			return err
		}
		return e.NoContent(http.StatusNoContent)
	}
	// One column, straight to the row, as consent is: the candidate's save hooks (progress, pipeline, webhooks) have
	// nothing to do with a language.
	_, err := e.App.DB().NewQuery("UPDATE candidates SET language = {:language} WHERE id = {:id}").
		Bind(dbx.Params{"language": body.Language, "id": candidate.Id}).
		Execute()
	if err != nil {
		return err
	}
	return e.NoContent(http.StatusNoContent)
}

func interviewWithdraw(e *core.RequestEvent) error {
	candidate := keyHolder(e)
	if candidate == nil {
		return linkNotValid(e)
	}
	key := candidate.GetString("secret")
	erased, err := lifecycle.Withdraw(e.App, candidate.Id, func(tx core.App, gone *core.Record) error {
		job, company, err := platform.JobAndCompanyOf(tx, gone)
		if err != nil {
			return err
		}
		collection, err := tx.FindCachedCollectionByNameOrId(withdrawnLinks)
		if err != nil {
			return err
		}
		row := core.NewRecord(collection)
		row.Set("keyHash", withdrawnLinkHash(key))
		row.Set("language", platform.CandidateLanguage(gone, job))
		if err := tx.Save(row); err != nil {
			return err
		}
		return mail.QueueWithdrawalNotices(tx, company, job, platform.Now(tx))
	})
	if err != nil {
		return err
	}
	if erased == nil {
		return linkNotValid(e)
	}
	e.Response.Header().Set("Cache-Control", "no-store")
	return e.JSON(http.StatusOK, map[string]int{"answers": erased.Answers, "videos": erased.Videos})
}
