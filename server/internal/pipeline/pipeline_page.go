package pipeline

import (
	"screenroom/server/internal/platform"

	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
)

// One page of a job's candidate pipeline (issue 15; issue 20 point 3): GET /api/screenroom/jobs/{id}/candidates
// ?page=&perPage=&status=&decision=&q=&sort=&dir=, as the job detail's table shows it (src/lib/pipeline-query.ts
// PipelineState): {page, perPage, totalItems, totalPages, items}, the shape of the records API's list, each item
// with the table's fields and the name of whoever set its decision (expand.decisionBy: id, firstName, lastName). For
// the managers of the job's company (the candidates list rule, decisions.md "Access model"); anyone else, and an
// unknown id, gets the same 404.
//
// Why a route and not the records API's list: at 3,000 candidates a job and ten readers, the list with `fields` (the
// picker turns every page into JSON, back into maps, and into JSON again) and the decisionBy expand (the users rule,
// a join across every company's managers) answered 270 pages a second on one core, 45 ms p95 against the budget's 20.
// Here access is decided once for the job, the page is one indexed statement on the job's candidates, and its total a
// count over the same index. Every parameter is checked against a fixed list (sort, direction, status, decision) or
// bound (q, the job), so no request reaches another job's candidates or any other column.

var pipelineSortColumns = map[string]string{
	// a status sorts by the answers stored (invited 0 < started < completed)
	"email": "email", "created": "created", "status": "answeredCount", "averageRating": "averageRating", "decision": "decision",
}

const pipelinePageSize = 30 // spec §9

type pipelineRow struct {
	ID            string  `db:"id" json:"id"`
	Email         string  `db:"email" json:"email"`
	Created       string  `db:"created" json:"created"`
	Status        string  `db:"status" json:"status"`
	AnsweredCount int     `db:"answeredCount" json:"answeredCount"`
	CompletedAt   string  `db:"completedAt" json:"completedAt"`
	AverageRating float64 `db:"averageRating" json:"averageRating"`
	RatingsCount  int     `db:"ratingsCount" json:"ratingsCount"`
	Decision      string  `db:"decision" json:"decision"`
	DecisionAt    string  `db:"decisionAt" json:"decisionAt"`
	Deadline      string  `db:"deadline" json:"deadline"`
	Withdrawn     bool    `db:"withdrawn" json:"withdrawn"`
	ByID          string  `db:"byId" json:"-"`
	ByFirstName   string  `db:"byFirstName" json:"-"`
	ByLastName    string  `db:"byLastName" json:"-"`
	Expand        *struct {
		DecisionBy pipelineUser `json:"decisionBy"`
	} `db:"-" json:"expand,omitempty"`
}

type pipelineUser struct {
	ID        string `json:"id"`
	FirstName string `json:"firstName"`
	LastName  string `json:"lastName"`
}

func registerPipelinePage(app core.App) {
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		se.Router.GET("/api/screenroom/jobs/{id}/candidates", pipelinePageRoute)
		return se.Next()
	})
}

// The values of the pipeline's filters: a status, and a decision ("none": no decision yet).
var (
	filterStatuses  = []string{"invited", "started", "completed"}
	filterDecisions = []string{"advance", "hold", "reject", "none"}
)

// filterQueryMax is the longest e-mail search the pipeline takes, in characters (the SPA's field says the same).
const filterQueryMax = 200

// pipelineWhere: the page's filter on the job's candidates, from the request's status, decision and q (anything
// else in them is no filter: the SPA's own defaults).
func pipelineWhere(jobID, status, decision, q string) (string, dbx.Params) {
	clauses := []string{"c.job = {:job}"}
	params := dbx.Params{"job": jobID}
	if slices.Contains(filterStatuses, status) {
		clauses = append(clauses, "c.status = {:status}")
		params["status"] = status
	}
	switch {
	case decision == "none":
		clauses = append(clauses, "c.decision = ''")
	case slices.Contains(filterDecisions, decision):
		clauses = append(clauses, "c.decision = {:decision}")
		params["decision"] = decision
	}
	if q = strings.TrimSpace(q); q != "" {
		// a part of the e-mail address, taken literally (% and _ are no wildcards here)
		escaped := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(q)
		clauses = append(clauses, `c.email LIKE {:q} ESCAPE '\'`)
		params["q"] = "%" + escaped + "%"
	}
	return strings.Join(clauses, " AND "), params
}

// pipelineTotal is how many of the job's candidates the page's where (pipelineWhere) matches. Without an e-mail
// search it is read from job_pipeline_counts (migration 1733201900), whose job, status and decision columns the
// where's clauses name as the candidates' do: a few rows, not a count over a job of 30,000 candidates on every page.
func pipelineTotal(app core.App, where string, params dbx.Params, searched bool) (int, error) {
	query := "SELECT coalesce(sum(c.n), 0) FROM job_pipeline_counts c WHERE " + where
	if searched {
		query = "SELECT count(*) FROM candidates c WHERE " + where
	}
	var total int
	err := app.DB().NewQuery(query).Bind(params).Row(&total)
	return total, err
}

// Filter is the pipeline's filter as the job detail keeps it in its URL (src/lib/pipeline-query.ts): a status, a
// decision ("none": no decision yet) and a part of the e-mail address; "" filters nothing.
type Filter struct {
	Status   string
	Decision string
	Q        string
}

// FilterError is what is wrong with f, on its field ("status", "decision" or "q"), or nil. The page's route reads
// an unknown value as no filter (an old link shows the whole list); what acts on "all matching" is refused instead,
// so a mistyped filter never widens to the whole job.
func FilterError(f Filter) error {
	if f.Status != "" && !slices.Contains(filterStatuses, f.Status) {
		return platform.FieldError("status", "Choose invited, started, completed, or every status.", "validation_invalid_value")
	}
	if f.Decision != "" && !slices.Contains(filterDecisions, f.Decision) {
		return platform.FieldError("decision", "Choose advance, hold, reject, no decision, or every decision.", "validation_invalid_value")
	}
	if len([]rune(f.Q)) > filterQueryMax {
		return platform.FieldError("q", fmt.Sprintf("The search must be at most %d characters.", filterQueryMax), "validation_length_out_of_range")
	}
	return nil
}

// Match is one candidate of a job's pipeline: its id and e-mail.
type Match struct {
	ID    string `db:"id" json:"id"`
	Email string `db:"email" json:"email"`
}

// MatchingCandidates is what "all matching" means on the pipeline: the candidates of job jobID that f shows
// (the page's own clauses), oldest invitation first, at most limit of them, and how many match in all. Access and
// f's values (FilterError) are the caller's to check.
func MatchingCandidates(app core.App, jobID string, f Filter, limit int) ([]Match, int, error) {
	where, params := pipelineWhere(jobID, f.Status, f.Decision, f.Q)
	var total int
	if err := app.DB().NewQuery("SELECT count(*) FROM candidates c WHERE " + where).Bind(params).Row(&total); err != nil {
		return nil, 0, err
	}
	matches := []Match{}
	err := app.DB().
		NewQuery(fmt.Sprintf("SELECT c.id, c.email FROM candidates c WHERE %s ORDER BY c.created, c.id LIMIT %d", where, max(0, limit))).
		Bind(params).
		All(&matches)
	if err != nil {
		return nil, 0, err
	}
	return matches, total, nil
}

func pipelinePageRoute(e *core.RequestEvent) error {
	jobID := e.Request.PathValue("id")
	if !platform.ManagesJob(e.App, jobID, platform.RequestUserID(e)) {
		return e.NotFoundError("The requested resource wasn't found.", nil)
	}
	query := e.Request.URL.Query()
	page, err := strconv.Atoi(query.Get("page"))
	if err != nil || page < 1 || page > 1_000_000 {
		page = 1
	}
	perPage, err := strconv.Atoi(query.Get("perPage"))
	if err != nil || perPage < 1 || perPage > 100 {
		perPage = pipelinePageSize
	}
	column, ok := pipelineSortColumns[query.Get("sort")]
	if !ok {
		column = "created"
	}
	dir := "DESC"
	if query.Get("dir") == "asc" {
		dir = "ASC"
	}
	q := query.Get("q")
	if len([]rune(q)) > filterQueryMax {
		q = string([]rune(q)[:filterQueryMax])
	}
	where, params := pipelineWhere(jobID, query.Get("status"), query.Get("decision"), q)
	params["viewer"] = e.Auth.Id

	total, err := pipelineTotal(e.App, where, params, strings.TrimSpace(q) != "")
	if err != nil {
		return err
	}
	rows := []pipelineRow{}
	// the sort ends with the id in the same direction, so equal values keep one order and pages never repeat or skip
	err = e.App.DB().NewQuery(fmt.Sprintf(`
		SELECT c.id, c.email, c.created, c.status, c.answeredCount, c.completedAt, coalesce(c.averageRating, 0) AS averageRating,
		       c.ratingsCount, c.decision, c.decisionAt, c.deadline, c.withdrawn,
		       coalesce(u.id, '') AS byId, coalesce(u.firstName, '') AS byFirstName, coalesce(u.lastName, '') AS byLastName
		FROM candidates c
		-- whoever set the decision, while they are the reader or a manager of the job's company: the users the
		-- records API's expand shows a fellow manager (the users rule)
		LEFT JOIN users u ON u.id = c.decisionBy AND c.decisionBy != '' AND (u.id = {:viewer} OR u.id IN (
		  SELECT m.value FROM jobs j JOIN companies co ON co.id = j.company, json_each(co.managers) m WHERE j.id = {:job}))
		WHERE %s
		ORDER BY c.%s %s, c.id %s
		LIMIT %d OFFSET %d`, where, column, dir, dir, perPage, (page-1)*perPage)).Bind(params).All(&rows)
	if err != nil {
		return err
	}
	for i := range rows {
		if rows[i].ByID != "" {
			rows[i].Expand = &struct {
				DecisionBy pipelineUser `json:"decisionBy"`
			}{pipelineUser{ID: rows[i].ByID, FirstName: rows[i].ByFirstName, LastName: rows[i].ByLastName}}
		}
	}
	return e.JSON(200, map[string]any{
		"page":       page,
		"perPage":    perPage,
		"totalItems": total,
		"totalPages": int(math.Ceil(float64(total) / float64(perPage))),
		"items":      rows,
	})
}
