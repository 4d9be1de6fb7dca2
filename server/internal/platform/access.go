package platform

import (
	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
)

// What the Go routes of the manager's screens ask before they read (decisions.md "Access model"): whether the
// request's user manages a company, and a candidate with its job for the managers of the job's company. Anyone else,
// and an unknown id, gets the same 404, so a route says nothing about other companies.

// ManagesCompany reports whether userID is a manager of company companyID: one indexed read of the company's
// managers.
func ManagesCompany(app core.App, companyID, userID string) bool {
	if companyID == "" || userID == "" {
		return false
	}
	var n int
	err := app.DB().
		NewQuery("SELECT count(*) FROM companies c WHERE c.id = {:company} AND EXISTS (SELECT 1 FROM json_each(c.managers) m WHERE m.value = {:user})").
		Bind(dbx.Params{"company": companyID, "user": userID}).
		Row(&n)
	return err == nil && n > 0
}

// RequestUserID is the id of the request's signed-in product user (not a superuser, not a candidate), or "".
func RequestUserID(e *core.RequestEvent) string {
	if e.Auth == nil || e.Auth.Collection().Name != "users" {
		return ""
	}
	return e.Auth.Id
}

// ManagedCandidate is the candidate of the route's {id} and its job, when the request may list it by the
// candidates collection's list rule (the managers of the job's company; the view rule would also let the candidate
// itself read its record); ok false otherwise. verified: also refuse an account whose address is not confirmed.
func ManagedCandidate(e *core.RequestEvent, verified bool) (info *core.RequestInfo, candidate, job *core.Record, ok bool) {
	info, err := e.RequestInfo()
	if err != nil || info.Auth == nil || (verified && (info.Auth.Collection().Name != "users" || !info.Auth.Verified())) {
		return nil, nil, nil, false
	}
	candidate, err = e.App.FindRecordById("candidates", e.Request.PathValue("id"))
	if err != nil {
		return nil, nil, nil, false
	}
	// The list rule (`@request.auth.collectionName = "users" && job.company.managers.id ?= @request.auth.id`, migration
	// 1732700100) as one indexed statement, as the pipeline routes decide it (ManagesJob): through PocketBase's rule
	// engine it was a sixth of the review's read (issue 20 point 3). A superuser passes, as every rule lets one.
	if !info.HasSuperuserAuth() && (info.Auth.Collection().Name != "users" || !ManagesJob(e.App, candidate.GetString("job"), info.Auth.Id)) {
		return nil, nil, nil, false
	}
	job, err = e.App.FindRecordById("jobs", candidate.GetString("job"))
	if err != nil {
		return nil, nil, nil, false
	}
	return info, candidate, job, true
}

// ManagesJob reports whether userId manages the company of job jobId: one indexed read (the job by id, its company
// by id, the company's managers array), the one Go copy of the collection rules' "manages this job".
func ManagesJob(app core.App, jobId, userId string) bool {
	if jobId == "" || userId == "" {
		return false
	}
	var found struct {
		N int `db:"n"`
	}
	err := app.DB().NewQuery(
		`SELECT count(*) AS n FROM jobs j JOIN companies c ON c.id = j.company
		 WHERE j.id = {:job} AND EXISTS (SELECT 1 FROM json_each(c.managers) m WHERE m.value = {:user})`,
	).Bind(dbx.Params{"job": jobId, "user": userId}).One(&found)
	return err == nil && found.N > 0
}
