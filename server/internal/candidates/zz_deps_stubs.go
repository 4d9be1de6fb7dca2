package candidates

// TEMPORARY stubs of ports not yet in main (never landed).

import (
	"github.com/pocketbase/pocketbase/core"
	"screenroom/server/internal/platform"
)

func requireOpenForInvites(app core.App, jobID string) error {
	job := platform.FindByIdOrNil(app, "jobs", jobID)
	if job != nil && job.GetString("closedAt") != "" {
		return platform.FieldError("job", "This job is closed. Reopen it to invite candidates.", "validation_job_closed")
	}
	return nil
}

func refusePastDeadline(app core.App, record *core.Record) error {
	deadline := record.GetString("deadline")
	changed := record.IsNew() || deadline != record.Original().GetString("deadline")
	if deadline == "" || !changed {
		return nil
	}
	if t, ok := platform.ParseDBTime(deadline); !ok || t.UnixMilli() <= platform.NowMs(app) {
		return platform.FieldError("deadline", "The deadline must be in the future.", "validation_past_deadline")
	}
	return nil
}

func sendInterviewMail(app core.App, candidate *core.Record, again, resent bool) {
	app.Logger().Warn("STUB sendInterviewMail", "candidate", candidate.Id, "again", again, "resent", resent)
}
