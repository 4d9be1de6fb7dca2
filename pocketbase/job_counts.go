package main

import (
	"database/sql"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
)

// The jobs list's counts (issue 16 point 4): GET /api/screenroom/companies/{id}/job-counts,
// {jobs: {<jobId>: {total, invited, started, completed}}} for every job of the company that has candidates (a job
// without any is absent: all zero). For the company's managers only; anyone else (an invited manager who has not
// joined, a candidate's key, another company's manager) and an unknown id get the same 404, so the route says
// nothing about other companies.
//
// The counts come from job_status_counts, kept in step with the candidates by triggers (migration
// 1733200400_job_status_counts.js): a row per job and stored status, never a walk of the jobs' candidates; a status
// the server has not set yet (”) counts as invited, as in the pipeline's counts (pb_hooks/lib/pipeline.js). SQLite
// writes the answer's JSON itself (issue 20 point 3: 300 jobs, read as rows in the hooks' JS engine, cost more than
// the read).
func registerJobCounts(app core.App) {
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		se.Router.GET("/api/screenroom/companies/{id}/job-counts", jobCountsRoute)
		return se.Next()
	})
}

func jobCountsRoute(e *core.RequestEvent) error {
	notFound := func() error { return e.NotFoundError("The requested resource wasn't found.", nil) }
	if requestUserID(e) == "" {
		return notFound()
	}
	// one row: the company's counts as JSON, or NULL when the user does not manage the company (or it does not exist)
	var body sql.NullString
	err := e.App.DB().NewQuery(`
		SELECT CASE WHEN EXISTS (SELECT 1 FROM companies c, json_each(c.managers) m WHERE c.id = {:company} AND m.value = {:user})
		       THEN json_object('jobs', json(json_group_object(job, json_object(
		         'total', total, 'invited', total - started - completed, 'started', started, 'completed', completed))))
		       END
		FROM (SELECT s.job AS job, sum(s.n) AS total,
		             sum(CASE WHEN s.status = 'started' THEN s.n ELSE 0 END) AS started,
		             sum(CASE WHEN s.status = 'completed' THEN s.n ELSE 0 END) AS completed
		      FROM job_status_counts s
		      WHERE s.n > 0 AND s.job IN (SELECT id FROM jobs WHERE company = {:company})
		      GROUP BY s.job)`).
		Bind(dbx.Params{"company": e.Request.PathValue("id"), "user": e.Auth.Id}).
		Row(&body)
	if err != nil || !body.Valid {
		return notFound()
	}
	return e.Blob(200, "application/json", []byte(body.String))
}
