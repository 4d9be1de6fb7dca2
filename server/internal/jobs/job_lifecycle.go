package jobs

import (
	"screenroom/server/internal/platform"

	"github.com/pocketbase/pocketbase/core"
)

// A job is open or closed (jobs.closedAt, migration 1733200000_job_lifecycle_retention.js). Closing deletes nothing.
// While a job is closed its candidates' links show a closed page and refuse answers, parts, consent and openings
// (package interview, code job_closed), no candidate is invited to it (a single invite, the CSV import, a resent
// link) and no reminder goes out. Reopening undoes all of it.

// JobClosedMessage is what a candidate of a closed job is told.
const JobClosedMessage = "This job was closed."

// InviteClosedMessage is what a manager inviting to a closed job is told.
const InviteClosedMessage = "This job is closed. Reopen it to invite candidates."

// IsClosed reports whether a jobs record is closed.
func IsClosed(job *core.Record) bool {
	return job != nil && job.GetString("closedAt") != ""
}

// ClosedJob is the job of id jobID when it is closed, else nil (an unknown job is not this rule's to refuse).
func ClosedJob(app core.App, jobID string) *core.Record {
	job := platform.FindByIdOrNil(app, "jobs", jobID)
	if !IsClosed(job) {
		return nil
	}
	return job
}

// RequireOpenForInvites is a 400 on the job field when the job of id jobID is closed: nobody is invited to a
// closed job.
func RequireOpenForInvites(app core.App, jobID string) error {
	if ClosedJob(app, jobID) != nil {
		return platform.FieldError("job", InviteClosedMessage, "validation_job_closed")
	}
	return nil
}

// closedAt is the server's: set and cleared only by the close and reopen routes. Through the records API a
// manager's create starts open and an update keeps the stored value, whatever was sent (a superuser's tools may set
// it).
func registerJobLifecycle(app core.App) {
	app.OnRecordCreateRequest("jobs").BindFunc(func(e *core.RecordRequestEvent) error {
		if !e.HasSuperuserAuth() {
			e.Record.Set("closedAt", "")
		}
		return e.Next()
	})
	app.OnRecordUpdateRequest("jobs").BindFunc(func(e *core.RecordRequestEvent) error {
		if !e.HasSuperuserAuth() {
			e.Record.Set("closedAt", e.Record.Original().GetString("closedAt"))
		}
		return e.Next()
	})
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		se.Router.POST("/api/screenroom/jobs/{id}/close", func(e *core.RequestEvent) error { return setJobClosed(e, true) })
		se.Router.POST("/api/screenroom/jobs/{id}/reopen", func(e *core.RequestEvent) error { return setJobClosed(e, false) })
		return se.Next()
	})
}

// setJobClosed: POST /api/screenroom/jobs/{id}/close and /reopen, a manager of the job's company (the jobs update
// rule) closes or reopens the job. 200 {closedAt} (” once reopened). Closing a closed job keeps when it was first
// closed; reopening an open one changes nothing. Anyone else, and an unknown job, gets the same 404.
func setJobClosed(e *core.RequestEvent, closing bool) error {
	notFound := func() error { return e.NotFoundError("The requested resource wasn't found.", nil) }
	if platform.RequestUser(e) == nil {
		return notFound()
	}
	job := platform.FindByIdOrNil(e.App, "jobs", e.Request.PathValue("id"))
	if job == nil {
		return notFound()
	}
	info, err := e.RequestInfo()
	if err != nil {
		return err
	}
	if ok, _ := e.App.CanAccessRecord(job, info, job.Collection().UpdateRule); !ok {
		return notFound()
	}
	closedAt := job.GetString("closedAt")
	if closing == (closedAt == "") {
		if closing {
			job.Set("closedAt", platform.NowText(e.App))
		} else {
			job.Set("closedAt", "")
		}
		if err := e.App.Save(job); err != nil {
			return err
		}
	}
	return e.JSON(200, map[string]string{"closedAt": job.GetString("closedAt")})
}

// registerJobQuestionsRule: every question of a job belongs to the job's company and has a kind; at least one.
func registerJobQuestionsRule(app core.App) {
	app.OnRecordValidate("jobs").BindFunc(func(e *core.RecordEvent) error {
		ids := e.Record.GetStringSlice("questions")
		if len(ids) == 0 {
			return platform.FieldError("questions", "Please add at least one question", "validation_required")
		}
		companyID := e.Record.GetString("company")
		for _, id := range ids {
			question := platform.FindByIdOrNil(e.App, "questions", id)
			if question == nil || question.GetString("company") != companyID {
				return platform.FieldError("questions", "Every question must belong to the job's company.", "")
			}
			if platform.QuestionKind(e.App, id) == "" {
				return platform.FieldError("questions", "Every question must be a video or a text question.", "")
			}
		}
		return e.Next()
	})
}
