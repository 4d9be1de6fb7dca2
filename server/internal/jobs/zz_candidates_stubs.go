package jobs

// TEMPORARY stub (branch p48-candidates only, never landed): the real one comes with the port of job-lifecycle.js.

import (
	"github.com/pocketbase/pocketbase/core"

	"screenroom/server/internal/platform"
)

func RequireOpenForInvites(app core.App, jobID string) error {
	job := platform.FindByIdOrNil(app, "jobs", jobID)
	if job != nil && job.GetString("closedAt") != "" {
		return platform.FieldError("job", "This job is closed. Reopen it to invite candidates.", "validation_job_closed")
	}
	return nil
}
