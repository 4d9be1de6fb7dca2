package jobs

import (
	"screenroom/server/internal/platform"

	"slices"
	"strconv"

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
// the server has not set yet (”) counts as invited, as in the pipeline's counts (pipeline/pipeline_counts.go). Go
// sums and writes them (issue 20 point 3: 300 jobs, read as rows by a JS hook, cost more than the read;
// SQLite's own GROUP BY and JSON cost 2.3 ms).
func registerJobCounts(app core.App) {
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		se.Router.GET("/api/screenroom/companies/{id}/job-counts", jobCountsRoute)
		return se.Next()
	})
}

func jobCountsRoute(e *core.RequestEvent) error {
	companyID := e.Request.PathValue("id")
	if !platform.ManagesCompany(e.App, companyID, platform.RequestUserID(e)) {
		return e.NotFoundError("The requested resource wasn't found.", nil)
	}
	kept, err := jobCountsJSON(e.App, companyID)
	if err != nil {
		return err
	}
	return answerKept(e, kept)
}

// jobCountsJSON: the company's counts as the route answers them, for a caller that checked the access first (the
// route, the company home's first screen). The answered counts are kept per company (jobCountsCache) with the
// company's numbers in job_counts_versions (moved by any change of its jobs' counts, migration 1733202001) and
// jobs_list_versions (a job added, removed or moved); a read that finds both unchanged answers the kept bytes. The
// bytes may be the kept entry's: never to be changed.
func jobCountsJSON(app core.App, companyID string) (kept, error) {
	// the numbers first: a write after them makes the counts read below newer than the numbers, never older
	var versions struct {
		Counts int64 `db:"counts"`
		Jobs   int64 `db:"jobs"`
	}
	err := app.DB().NewQuery(`SELECT coalesce((SELECT version FROM job_counts_versions WHERE company = {:company}), 0) AS counts,
		coalesce((SELECT version FROM jobs_list_versions WHERE company = {:company}), 0) AS jobs`).
		Bind(dbx.Params{"company": companyID}).One(&versions)
	if err != nil {
		return kept{}, err
	}
	shape := strconv.FormatInt(versions.Jobs, 10)
	if body, ok := jobCountsCache.get(companyID, versions.Counts, shape); ok {
		return kept{jobCountsCache, companyID, versions.Counts, shape, body}, nil
	}
	body, err := sumJobCounts(app, companyID)
	if err != nil {
		return kept{}, err
	}
	jobCountsCache.put(companyID, versions.Counts, shape, body)
	return kept{jobCountsCache, companyID, versions.Counts, shape, body}, nil
}

// jobCountsCache holds each company's last answered counts (as jobsListCache holds its list).
var jobCountsCache = &listCache{entries: map[string]listCacheEntry{}, limit: jobsListCacheBytes}

// sumJobCounts reads and sums the company's counts into the route's JSON.
func sumJobCounts(app core.App, companyID string) ([]byte, error) {
	// One row per job and status with candidates, job by job (the jobs by company index, then each job's rows of
	// job_status_counts by its primary key); Go sums them per job. SQLite's GROUP BY sorted them in a temporary
	// b-tree and its JSON functions cost as much again (2.3 ms a request at 301 jobs).
	rows, err := app.DB().NewQuery(`SELECT s.job, s.status, s.n FROM jobs j JOIN job_status_counts s ON s.job = j.id
		WHERE j.company = {:company} AND s.n > 0`).Bind(dbx.Params{"company": companyID}).Rows()
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	type counts struct{ total, started, completed int64 }
	byJob := map[string]*counts{}
	var job, status string
	var n int64
	for rows.Next() {
		if err := rows.Scan(&job, &status, &n); err != nil {
			return nil, err
		}
		c := byJob[job]
		if c == nil {
			c = &counts{}
			byJob[job] = c
		}
		c.total += n
		switch status {
		case "started":
			c.started += n
		case "completed":
			c.completed += n
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	jobs := make([]string, 0, len(byJob))
	for id := range byJob {
		jobs = append(jobs, id)
	}
	slices.Sort(jobs)
	body := make([]byte, 0, 32+len(jobs)*80)
	body = append(body, `{"jobs":{`...)
	for i, id := range jobs {
		c := byJob[id]
		if i > 0 {
			body = append(body, ',')
		}
		body = strconv.AppendQuote(body, id) // record ids are [a-z0-9]: nothing to escape
		body = append(body, `:{"total":`...)
		body = strconv.AppendInt(body, c.total, 10)
		body = append(body, `,"invited":`...)
		body = strconv.AppendInt(body, c.total-c.started-c.completed, 10)
		body = append(body, `,"started":`...)
		body = strconv.AppendInt(body, c.started, 10)
		body = append(body, `,"completed":`...)
		body = strconv.AppendInt(body, c.completed, 10)
		body = append(body, '}')
	}
	body = append(body, "}}"...)
	return body, nil
}
