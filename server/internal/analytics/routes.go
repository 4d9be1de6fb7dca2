package analytics

import (
	"net/http"
	"slices"
	"strings"

	"screenroom/server/internal/platform"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
)

// GET /api/screenroom/jobs/{id}/analytics and GET /api/screenroom/companies/{id}/analytics: a job's figures, and its
// company's over all its jobs (figures.go says what each counts), for the verified managers of the company only;
// anyone else (another company's manager, a manager removed from it, an unverified account, a candidate's key,
// anonymous) and an unknown id get the same 404, so the routes say nothing about other companies. The answer is JSON
// (figuresResponse); the SPA draws it and makes its CSV.

func registerRoutes(app core.App) {
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		se.Router.GET("/api/screenroom/jobs/{id}/analytics", jobAnalyticsRoute)
		se.Router.GET("/api/screenroom/companies/{id}/analytics", companyAnalyticsRoute)
		return se.Next()
	})
}

// mayRead reports whether the request's user may read the company's analytics: a product user whose address is
// confirmed (decisions.md: an unverified account acts on nothing) and who manages the company today.
func mayRead(e *core.RequestEvent, companyID string) bool {
	if e.Auth == nil || e.Auth.Collection().Name != "users" || !e.Auth.Verified() {
		return false
	}
	return platform.ManagesCompany(e.App, companyID, e.Auth.Id)
}

func notFound(e *core.RequestEvent) error {
	return e.NotFoundError("The requested resource wasn't found.", nil)
}

type companyRow struct {
	Name     string `db:"name"`
	TimeZone string `db:"timeZone"`
}

func companyOf(app core.App, companyID string) (companyRow, error) {
	var row companyRow
	err := app.DB().NewQuery("SELECT name, COALESCE(timeZone, '') AS timeZone FROM companies WHERE id = {:id}").
		Bind(dbx.Params{"id": companyID}).One(&row)
	return row, err
}

func jobAnalyticsRoute(e *core.RequestEvent) error {
	job, ok := oneJob(e.App, e.Request.PathValue("id"))
	if !ok || !mayRead(e, job.Company) {
		return notFound(e)
	}
	company, err := companyOf(e.App, job.Company)
	if err != nil {
		return err
	}
	read, err := storeOf(e.App).figuresOf(e.App, []jobRow{job}, wantsLatest(e))
	if err != nil {
		return err
	}
	m := mergeFigures([]*jobFigures{read.jobs[job.ID]}, platform.Zone(company.TimeZone))
	titles, err := questionTitles(e.App, "q.id IN (SELECT value FROM json_each({:ids}))", dbx.Params{"ids": job.Questions})
	if err != nil {
		return err
	}
	response := buildResponse("job", job.ID, job.Title, company, m, read)
	response.Questions = make([]questionJSON, 0, len(job.questionIDs()))
	for i, id := range job.questionIDs() {
		counts := m.byQuestion[id]
		if counts == nil {
			counts = &questionCounts{}
		}
		response.Questions = append(response.Questions, questionJSON{ID: id, Title: titles[id], Position: i + 1, Reached: counts.reached, Answered: counts.answered, Stopped: counts.stopped})
	}
	return answer(e, response)
}

func companyAnalyticsRoute(e *core.RequestEvent) error {
	companyID := e.Request.PathValue("id")
	if !mayRead(e, companyID) {
		return notFound(e)
	}
	company, err := companyOf(e.App, companyID)
	if err != nil {
		return notFound(e)
	}
	jobs, err := companyJobs(e.App, companyID)
	if err != nil {
		return err
	}
	m, read, err := storeOf(e.App).companyFigures(e.App, companyID, jobs, platform.Zone(company.TimeZone), wantsLatest(e))
	if err != nil {
		return err
	}
	titles, err := questionTitles(e.App, "q.company = {:company}", dbx.Params{"company": companyID})
	if err != nil {
		return err
	}
	response := buildResponse("company", companyID, company.Name, company, m, read)
	response.Questions = make([]questionJSON, 0, len(m.byQuestion))
	for id, counts := range m.byQuestion {
		response.Questions = append(response.Questions, questionJSON{ID: id, Title: titles[id], Reached: counts.reached, Answered: counts.answered, Stopped: counts.stopped})
	}
	// where most stopped first
	slices.SortFunc(response.Questions, func(a, b questionJSON) int {
		if a.Stopped != b.Stopped {
			return b.Stopped - a.Stopped
		}
		if a.Reached != b.Reached {
			return b.Reached - a.Reached
		}
		return strings.Compare(a.Title+a.ID, b.Title+b.ID)
	})
	response.Jobs = make([]jobJSON, 0, len(jobs))
	for _, job := range jobs {
		f := read.jobs[job.ID].funnel
		response.Jobs = append(response.Jobs, jobJSON{
			ID: job.ID, Title: job.Title, Archived: job.Archived, Closed: job.ClosedAt != "",
			Invited: f.invited, Started: f.started, Completed: f.completed, Decided: f.advance + f.hold + f.reject,
		})
	}
	return answer(e, response)
}

// wantsLatest: the manager's Refresh (?fresh=1) asks for figures that count every write, computed before the answer.
func wantsLatest(e *core.RequestEvent) bool {
	return e.Request.URL.Query().Get("fresh") == "1"
}

func answer(e *core.RequestEvent, response *figuresResponse) error {
	// a manager's figures: never kept by a browser or a proxy
	e.Response.Header().Set("Cache-Control", "no-store")
	return e.JSON(http.StatusOK, response)
}

// questionTitles is the title of each question `where` selects (alias q).
func questionTitles(app core.App, where string, params dbx.Params) (map[string]string, error) {
	var rows []struct {
		ID    string `db:"id"`
		Title string `db:"title"`
	}
	if err := app.DB().NewQuery("SELECT q.id, q.title FROM questions q WHERE " + where).Bind(params).All(&rows); err != nil {
		return nil, err
	}
	titles := make(map[string]string, len(rows))
	for _, row := range rows {
		titles[row.ID] = row.Title
	}
	return titles, nil
}

type funnelJSON struct {
	Invited    int `json:"invited"`
	LinkOpened int `json:"linkOpened"`
	Agreed     int `json:"agreed"`
	Started    int `json:"started"`
	Completed  int `json:"completed"`
	Decided    int `json:"decided"`
}

type decisionsJSON struct {
	Advance int `json:"advance"`
	Hold    int `json:"hold"`
	Reject  int `json:"reject"`
}

type questionJSON struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	// its place in the job's order (1 first); 0 in a company's figures, where a question may sit anywhere
	Position int `json:"position"`
	Reached  int `json:"reached"`
	Answered int `json:"answered"`
	Stopped  int `json:"stopped"`
}

type durationJSON struct {
	// completed candidates with both stamps
	Candidates    int    `json:"candidates"`
	MedianSeconds *int64 `json:"medianSeconds"`
	P90Seconds    *int64 `json:"p90Seconds"`
}

type weekJSON struct {
	// the week's Monday in the company's time zone
	Week      string `json:"week"`
	Invited   int    `json:"invited"`
	Completed int    `json:"completed"`
}

type earlierJSON struct {
	// the Monday after the last of these weeks
	Before    string `json:"before"`
	Invited   int    `json:"invited"`
	Completed int    `json:"completed"`
}

type remindersJSON struct {
	Reminded struct {
		Candidates     int `json:"candidates"`
		Completed      int `json:"completed"`
		CompletedAfter int `json:"completedAfter"`
	} `json:"reminded"`
	NotReminded struct {
		Candidates int `json:"candidates"`
		Completed  int `json:"completed"`
	} `json:"notReminded"`
}

type jobJSON struct {
	ID        string `json:"id"`
	Title     string `json:"title"`
	Archived  bool   `json:"archived"`
	Closed    bool   `json:"closed"`
	Invited   int    `json:"invited"`
	Started   int    `json:"started"`
	Completed int    `json:"completed"`
	Decided   int    `json:"decided"`
}

type figuresResponse struct {
	Scope string `json:"scope"`
	ID    string `json:"id"`
	Title string `json:"title"`
	// the figures count every write committed before it: the server's now, or when kept figures were computed
	AsOf string `json:"asOf"`
	// some figures were kept from before a write they do not count yet (at most a minute); they are being computed
	// again, and a read in a moment (or with ?fresh=1 at once) counts it
	Refreshing       bool           `json:"refreshing"`
	TimeZone         string         `json:"timeZone"`
	Funnel           funnelJSON     `json:"funnel"`
	Decisions        decisionsJSON  `json:"decisions"`
	Questions        []questionJSON `json:"questions"`
	TimeToComplete   durationJSON   `json:"timeToComplete"`
	InviteToComplete durationJSON   `json:"inviteToComplete"`
	Weeks            []weekJSON     `json:"weeks"`
	EarlierWeeks     *earlierJSON   `json:"earlierWeeks"`
	Reminders        remindersJSON  `json:"reminders"`
	// the company's figures only: each job's own
	Jobs []jobJSON `json:"jobs,omitempty"`
}

func buildResponse(scope, id, title string, company companyRow, m *merged, read *readFigures) *figuresResponse {
	zone := platform.Zone(company.TimeZone)
	r := &figuresResponse{Scope: scope, ID: id, Title: title, AsOf: platform.DBTime(read.asOf), Refreshing: read.refreshing, TimeZone: zone.String()}
	f := m.funnel
	r.Funnel = funnelJSON{Invited: f.invited, LinkOpened: f.linkOpened, Agreed: f.agreed, Started: f.started, Completed: f.completed, Decided: f.advance + f.hold + f.reject}
	r.Decisions = decisionsJSON{Advance: f.advance, Hold: f.hold, Reject: f.reject}
	r.TimeToComplete = m.timeToComplete
	r.InviteToComplete = m.inviteToComplete
	r.Weeks, r.EarlierWeeks = m.weeks, m.earlier
	r.Reminders.Reminded.Candidates = m.reminded.candidates
	r.Reminders.Reminded.Completed = m.reminded.completed
	r.Reminders.Reminded.CompletedAfter = m.reminded.completedAfter
	r.Reminders.NotReminded.Candidates = m.notReminded.candidates
	r.Reminders.NotReminded.Completed = m.notReminded.completed
	return r
}
