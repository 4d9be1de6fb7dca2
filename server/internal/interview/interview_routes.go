package interview

import (
	"io"
	"net/http"
	"slices"
	"time"

	"screenroom/server/internal/mail"
	"screenroom/server/internal/platform"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/apis"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/router"
)

// The candidate's routes, each for the holder of the candidate's key (in the path and in the X-Candidate-Key
// header); anyone else gets the same 404 with the invalid-link message.
func registerInterviewRoutes(app core.App) {
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		se.Router.GET("/api/screenroom/interviews/{id}", interviewGet)
		se.Router.POST("/api/screenroom/interviews/{id}/consent", interviewConsent)
		se.Router.POST("/api/screenroom/interviews/{id}/questions/{questionId}/open", interviewOpen)
		se.Router.POST("/api/screenroom/interviews/{id}/connection-check", connectionCheck).
			Bind(apis.BodyLimit(platform.ConnectionCheckMaxBytes))
		se.Router.POST("/api/screenroom/interviews/{id}/language", interviewLanguage).
			Bind(apis.BodyLimit(platform.CandidateChoiceMaxBytes))
		se.Router.POST("/api/screenroom/interviews/{id}/withdraw", interviewWithdraw).
			Bind(apis.BodyLimit(platform.CandidateChoiceMaxBytes), apis.SkipSuccessActivityLog())
		return se.Next()
	})
}

func linkNotValid(e *core.RequestEvent) error {
	return e.NotFoundError("This interview link is not valid", nil)
}

// keyHolder is the candidate whose key is both in the path and in the header, or nil.
func keyHolder(e *core.RequestEvent) *core.Record {
	key := e.Request.PathValue("id")
	if !platform.IsCandidateKey(key) {
		return nil
	}
	candidate := platform.RequestCandidate(e)
	if candidate == nil || candidate.GetString("secret") != key {
		return nil
	}
	return candidate
}

// interviewGet: GET /api/screenroom/interviews/{key}, the interview read (interview_read.go). A link sent before
// candidates had keys carries the record id: for such a candidate (linkReplaced) the route mails the new link to the
// candidate's own address (within its e-mail budget, so opening the old link again and again mails nobody) and
// answers 410; whoever holds only the id learns nothing more than "replaced".
func interviewGet(e *core.RequestEvent) error {
	key := e.Request.PathValue("id")
	if platform.IsCandidateKey(key) {
		return interviewRead(e, key)
	}
	legacy := platform.FindByIdOrNil(e.App, "candidates", key)
	if legacy == nil || !legacy.GetBool("linkReplaced") {
		return linkNotValid(e)
	}
	if platform.TakeMailBudget(e.App, legacy.GetString("email"), "invite") {
		mail.SendInterviewMail(e.App, legacy, true, false)
	}
	return router.NewApiError(http.StatusGone, "This interview link was replaced: the new one was sent to your e-mail address.", nil)
}

// interviewConsent: POST /api/screenroom/interviews/{key}/consent, the candidate ticked 'I agree' on the start
// screen. 200 {consentedAt}; a second call keeps the first time. Answers and staged parts are refused before it
// (platform.RequireConsent). 403 (deadline_passed, withdrawn or job_closed) once the interview is closed: a closed
// interview starts nothing, consent included.
func interviewConsent(e *core.RequestEvent) error {
	presented := keyHolder(e)
	if presented == nil {
		return linkNotValid(e)
	}
	if err := RequireAnswerable(e.App, presented, time.Time{}); err != nil {
		return err
	}
	consentedAt := ""
	err := e.App.RunInTransaction(func(txApp core.App) error {
		candidate, err := txApp.FindRecordById("candidates", presented.Id)
		if err != nil {
			return err
		}
		consentedAt = candidate.GetString("consentedAt")
		if consentedAt != "" {
			return nil
		}
		// One column, straight to the row: the record's own save hooks (progress, pipeline) have nothing to do with
		// it. The system clock, not the test clock, as it always was.
		_, err = txApp.DB().NewQuery("UPDATE candidates SET consentedAt = {:at} WHERE id = {:id} AND (consentedAt IS NULL OR consentedAt = '')").
			Bind(dbx.Params{"at": platform.DBTime(time.Now()), "id": candidate.Id}).
			Execute()
		if err != nil {
			return err
		}
		candidate, err = txApp.FindRecordById("candidates", candidate.Id)
		if err != nil {
			return err
		}
		consentedAt = candidate.GetString("consentedAt")
		return nil
	})
	if err != nil {
		return err
	}
	return e.JSON(http.StatusOK, map[string]string{"consentedAt": consentedAt})
}

// interviewOpen: POST /api/screenroom/interviews/{key}/questions/{questionId}/open, the candidate pressed 'View
// question'. Records the question's first opening (a second call keeps the first) and answers 200 {openedAt,
// serverNow}: the preparation time (video) and the text countdown run on the server's clock from it, so a reload, the
// back button or a reopened link resume with what is left. 404 with the invalid-link message also for a question
// that is not one of the candidate's job's (the same answer for one that does not exist); 403 before consent; 403
// (deadline_passed, withdrawn, job_closed) once the interview is closed, except a question opened before the
// deadline, asked again in its grace window (its openedAt is given back, nothing new starts).
func interviewOpen(e *core.RequestEvent) error {
	candidate := keyHolder(e)
	if candidate == nil {
		return linkNotValid(e)
	}
	questionID := e.Request.PathValue("questionId")
	job, err := e.App.FindRecordById("jobs", candidate.GetString("job"))
	if err != nil {
		return err
	}
	if !slices.Contains(job.GetStringSlice("questions"), questionID) {
		return linkNotValid(e)
	}
	if err := platform.RequireConsent(candidate); err != nil {
		return err
	}
	if err := RequireAnswerable(e.App, candidate, OpenedAt(e.App, candidate.Id, questionID)); err != nil {
		return err
	}
	openedAt, err := MarkOpened(e.App, candidate.Id, questionID)
	if err != nil {
		return err
	}
	return e.JSON(http.StatusOK, map[string]string{"openedAt": openedAt, "serverNow": platform.NowText(e.App)})
}

// connectionCheck: POST /api/screenroom/interviews/{key}/connection-check, the device check's timed upload. The
// candidate's screen sends a few hundred KB and times the request; the route reads the bytes and drops them: nothing
// is written to disk or to the database, so it cannot fill a disk or stand in for a take. 204 for the candidate;
// 404 for anyone else, before a byte is read; 413 for a body over platform.ConnectionCheckMaxBytes, announced by its
// Content-Length (the body limit) or found while reading a chunked body.
func connectionCheck(e *core.RequestEvent) error {
	if keyHolder(e) == nil {
		return linkNotValid(e)
	}
	tooBig := func() error {
		return router.NewApiError(http.StatusRequestEntityTooLarge, "The connection check sends at most 1 MB.", nil)
	}
	// read to the end (the upload is timed on the device until the answer), then forgotten
	read, err := io.Copy(io.Discard, io.LimitReader(e.Request.Body, platform.ConnectionCheckMaxBytes+1))
	if err != nil || read > platform.ConnectionCheckMaxBytes {
		return tooBig()
	}
	return e.NoContent(http.StatusNoContent)
}
