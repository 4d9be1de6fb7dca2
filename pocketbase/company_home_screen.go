package main

// The company home from the server (issue 20 point 2): GET /companies/{id} (and /companies/{id}/jobs, where the app
// takes it) for a manager of the company is answered with the manager shell and the jobs list already written into
// index.html, like a candidate's start screen (first_screens.go), and with the three reads the app would make first
// (the user's companies, the jobs list, its counts) beside it in the head as one JSON script element: the app's
// route loaders put them in its query cache instead of asking again (src/app/prefetch.ts).
//
// Who is asking: a page load carries no Authorization header, so the app keeps a copy of its session token in a
// cookie for page loads only (src/lib/session-cookie.ts): `sr_session`, Path=/companies, SameSite=Strict (never
// sent by another site's link or form), Secure over https, gone with the session. The token is checked here as the
// API checks it (an auth token of the users collection, signature, expiry and the user's token key), and the
// account must be verified. Then the same access check as the routes' (managesCompany). Anything else (no cookie,
// an expired or foreign token, another company, a query string) gets the ordinary index.html, and the app does
// what it does today (sign-in, 'You don't have access to this company').
//
// The page is personal: no-store, Vary: Cookie, no-referrer and the build's CSP. Every value in the markup is
// escaped by html/template; the embedded JSON by encoding/json, which writes <, > and & inside strings as \u
// escapes (the kept jobs list comes from SQLite's JSON, which does not: it is compacted through encoding/json here).
//
// The table's 'Created' is written in the manager's time zone, which the app keeps in the `sr_tz` cookie beside the
// session (an IANA name; UTC when absent or unknown). The markup mirrors src/app/layouts/manager-shell.tsx, the user
// menu's and the company switcher's buttons before their code loads, and src/features/jobs/screens/jobs-list.tsx in
// src/components/record-list.tsx; e2e/first-screens.spec.ts compares it with the app's, element by element. Until the
// app runs, the search field is read-only and the page's buttons (the user menu, the company select, search, each
// job's 'Delete') and the archived toggle are disabled: nothing typed is lost when the app takes over, and no click
// falls on a button without its handler (a click on a link is a page load, as always).

import (
	"bytes"
	"encoding/json"
	"html/template"
	"regexp"
	"strconv"
	"strings"
	"time"
	_ "time/tzdata" // the managers' time zones, whatever the server's system has

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/apis"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/types"
)

// the company home, and its jobs list (the home's index route redirects there in the app)
var companyHomePagePath = regexp.MustCompile(`^/companies/([a-z0-9]{15})(?:/jobs)?/?$`)

const (
	sessionCookieName  = "sr_session"
	timeZoneCookieName = "sr_tz"
	// companyHomeJSONID: the element the three reads are embedded in (src/app/prefetch.ts reads it)
	companyHomeJSONID = "screenroom-company-home"
)

var timeZoneName = regexp.MustCompile(`^[A-Za-z0-9_+\-/]{1,64}$`)

// companyHomeData: what the app's loaders would read first, as its API answers each.
type companyHomeData struct {
	User      string          `json:"user"`
	Company   string          `json:"company"`
	Companies json.RawMessage `json:"companies"`
	Jobs      json.RawMessage `json:"jobs"`
	Counts    json.RawMessage `json:"counts"`
}

type jobCounts struct {
	Invited   int64 `json:"invited"`
	Started   int64 `json:"started"`
	Completed int64 `json:"completed"`
}

type companyHomeRow struct {
	ID, Title, Created         string
	Invited, Started, Complete string
	Closed                     bool
}

type companyHomeView struct {
	CompanyID, CompanyName, UserName, Initials, InitialsClass string
	Switcher                                                  bool
	Rows                                                      []companyHomeRow
}

// serveCompanyHome answers the page with its first screen, or hands the request on (e.Next()) for the ordinary one.
func serveCompanyHome(e *core.RequestEvent, shell *firstScreenShell, companyID string) error {
	cookie, err := e.Request.Cookie(sessionCookieName)
	if err != nil || cookie.Value == "" {
		return e.Next()
	}
	user, err := e.App.FindAuthRecordByToken(cookie.Value, core.TokenTypeAuth)
	if err != nil || user.Collection().Name != "users" || !user.Verified() || !managesCompany(e.App, companyID, user.Id) {
		return e.Next()
	}
	page, err := companyHomePage(e, shell, user, companyID)
	if err != nil {
		// the app reads again and shows its own error, never a JSON error in place of the page
		e.App.Logger().Error("first screens: the company home could not be read; the page is served without it", "error", err)
		return e.Next()
	}
	e.Response.Header().Add("Vary", "Cookie")
	return sendFirstScreen(e, page, nil, "no-store")
}

func companyHomePage(e *core.RequestEvent, shell *firstScreenShell, user *core.Record, companyID string) ([]byte, error) {
	jobsJSON, err := jobsListJSON(e.App, companyID)
	if err != nil {
		return nil, err
	}
	countsJSON, err := jobCountsJSON(e.App, companyID)
	if err != nil {
		return nil, err
	}
	// the company switcher's list, as the records API lists it to this user (its enrich hooks, hidden fields)
	companies, err := e.App.FindRecordsByFilter("companies", "managers.id ?= {:user}", "name", 0, 0, dbx.Params{"user": user.Id})
	if err != nil {
		return nil, err
	}
	// as this user (the page's request has no Authorization header), then back to how the request came
	previous := e.Auth
	e.Auth = user
	err = apis.EnrichRecords(e, companies)
	e.Auth = previous
	if err != nil {
		return nil, err
	}
	companiesJSON, err := json.Marshal(companies)
	if err != nil {
		return nil, err
	}
	// encoding/json compacts the raw parts and escapes <, > and & in them: nothing in a job's title can end the
	// script element
	data, err := json.Marshal(companyHomeData{User: user.Id, Company: companyID, Companies: companiesJSON, Jobs: jobsJSON, Counts: countsJSON})
	if err != nil {
		return nil, err
	}

	location := time.UTC
	if tz, err := e.Request.Cookie(timeZoneCookieName); err == nil && timeZoneName.MatchString(tz.Value) {
		if loaded, err := time.LoadLocation(tz.Value); err == nil {
			location = loaded
		}
	}
	companyName := ""
	for _, company := range companies {
		if company.Id == companyID {
			companyName = company.GetString("name")
		}
	}
	homeUser := companyHomeUser{
		First: user.GetString("firstName"), Last: user.GetString("lastName"),
		HasAvatar: user.GetString("avatar") != "", Switcher: user.GetString("primaryCompany") != "",
	}
	view, err := companyHomeViewOf(companyID, companyName, homeUser, jobsJSON, countsJSON, location)
	if err != nil {
		return nil, err
	}
	markup, err := renderCompanyHome(view)
	if err != nil {
		return nil, err
	}
	return shell.page(companyHomeJSONID, data, markup, shell.companyHomeCSS), nil
}

// companyHomeUser: what the screen shows of the signed-in manager.
type companyHomeUser struct {
	First, Last string
	HasAvatar   bool
	// Switcher: the company select is shown (the user has a primary company)
	Switcher bool
}

// companyHomeViewOf: the whole screen's view, from the company, the user, the jobs list and its counts as their
// routes answer them, with the dates in `location`.
func companyHomeViewOf(companyID, companyName string, user companyHomeUser, jobsJSON, countsJSON []byte, location *time.Location) (companyHomeView, error) {
	view := companyHomeView{CompanyID: companyID, CompanyName: companyName, Switcher: user.Switcher}
	var jobs []struct {
		ID       string `json:"id"`
		Title    string `json:"title"`
		Created  string `json:"created"`
		Archived bool   `json:"archived"`
		ClosedAt string `json:"closedAt"`
	}
	if err := json.Unmarshal(jobsJSON, &jobs); err != nil {
		return view, err
	}
	var counts struct {
		Jobs map[string]jobCounts `json:"jobs"`
	}
	if err := json.Unmarshal(countsJSON, &counts); err != nil {
		return view, err
	}
	view.UserName = user.First + " " + user.Last
	if !user.HasAvatar {
		// Radix's Avatar shows the initials once it knows there is no image to load; with one, an empty fallback
		// until the image has come
		view.Initials = strings.ToUpper(firstRune(user.First) + firstRune(user.Last))
		switch len([]rune(view.Initials)) {
		case 1:
			view.InitialsClass = " rt-one-letter"
		case 2:
			view.InitialsClass = " rt-two-letters"
		}
	}
	for _, job := range jobs {
		if job.Archived { // put away: listed only when asked for (the toggle is off on a first visit)
			continue
		}
		created := ""
		if job.Created != "" {
			date, err := types.ParseDateTime(job.Created)
			if err != nil {
				return view, err
			}
			created = date.Time().In(location).Format("Jan 2, 2006, 3:04 PM")
		}
		c := counts.Jobs[job.ID]
		view.Rows = append(view.Rows, companyHomeRow{
			ID: job.ID, Title: job.Title, Created: created, Closed: job.ClosedAt != "",
			Invited: strconv.FormatInt(c.Invited, 10), Started: strconv.FormatInt(c.Started, 10), Complete: strconv.FormatInt(c.Completed, 10),
		})
	}
	return view, nil
}

// renderCompanyHome: the screen's markup for `view`.
func renderCompanyHome(view companyHomeView) (string, error) {
	var markup bytes.Buffer
	if err := companyHomeTemplate.Execute(&markup, view); err != nil {
		return "", err
	}
	return markup.String(), nil
}

func firstRune(s string) string {
	for _, r := range s {
		return string(r)
	}
	return ""
}

const chevronPath = `<path d="M0.135232 3.15803C0.324102 2.95657 0.640521 2.94637 0.841971 3.13523L4.5 6.56464L8.158 3.13523C8.3595 2.94637 8.6759 2.95657 8.8648 3.15803C9.0536 3.35949 9.0434 3.67591 8.842 3.86477L4.84197 7.6148C4.64964 7.7951 4.35036 7.7951 4.15803 7.6148L0.158031 3.86477C-0.0434285 3.67591 -0.0536285 3.35949 0.135232 3.15803Z"></path>`

// The manager shell around the jobs list, as Radix Themes renders them before the user menu's and the company
// select's code has loaded (their look-alike buttons).
var companyHomeTemplate = template.Must(template.New("company-home").Parse(
	themeFrame +
		`<div class="rt-Flex rt-r-fd-column rt-r-min-h" style="--min-height: 100vh;">` +
		`<header class="rt-Box rt-r-px-4 rt-r-py-3" style="border-bottom: 1px solid var(--gray-a5);"><div class="rt-Flex rt-r-ai-center rt-r-jc-space-between rt-r-gap-4">` +
		`<a href="/" data-discover="true" style="color: inherit; text-decoration: none;"><div class="rt-Flex rt-r-ai-center rt-r-gap-2">` +
		`<svg width="24" height="24" viewBox="0 0 32 32" aria-hidden="true" focusable="false"><rect width="32" height="32" rx="7" fill="var(--accent-9)"></rect>` +
		`<rect x="6" y="9" width="14" height="14" rx="3" fill="var(--accent-contrast)"></rect><path d="M21 14.5 26 11v10l-5-3.5z" fill="var(--accent-contrast)"></path></svg>` +
		`<span class="rt-Text rt-r-size-4 rt-r-weight-bold rt-high-contrast">Screenroom</span></div></a>` +
		`<span style="display: contents;"><button data-accent-color="gray" aria-haspopup="menu" aria-expanded="false" data-disabled="true" disabled="" class="rt-reset rt-BaseButton rt-r-size-2 rt-variant-ghost rt-Button" style="min-width: 0px; max-width: 100%; flex-shrink: 1;">` +
		`<span data-accent-color="" data-radius="full" class="rt-reset rt-AvatarRoot rt-r-size-1 rt-variant-soft"><span class="rt-AvatarFallback{{.InitialsClass}}">{{.Initials}}</span></span>` +
		`<span class="rt-Text rt-r-size-2 rt-r-weight-medium rt-truncate">{{.UserName}}</span>` +
		`<svg width="9" height="9" viewBox="0 0 9 9" fill="currentcolor" xmlns="http://www.w3.org/2000/svg" aria-hidden="true">` + chevronPath + `</svg></button></span></div></header>` +
		`{{if .Switcher}}<nav aria-label="Company" class="rt-Box rt-r-px-4 rt-r-py-2" style="border-bottom: 1px solid var(--gray-a4); background: var(--gray-a2);"><div class="rt-Flex rt-r-ai-center rt-r-fw-wrap rt-r-gap-4">` +
		`<span style="display: contents;"><button type="button" role="combobox" aria-label="Company" aria-expanded="false" aria-autocomplete="none" data-state="closed" disabled="" class="rt-reset rt-SelectTrigger rt-r-size-2 rt-variant-soft">` +
		`<span class="rt-SelectTriggerInner"><span style="pointer-events: none;">{{.CompanyName}}</span></span>` +
		`<svg width="9" height="9" viewBox="0 0 9 9" fill="currentcolor" xmlns="http://www.w3.org/2000/svg" aria-hidden="true" class="rt-SelectIcon">` + chevronPath + `</svg></button></span>` +
		`<a data-accent-color="" href="/companies/{{.CompanyID}}" data-discover="true" class="rt-Text rt-reset rt-Link rt-r-size-2 rt-r-weight-medium rt-underline-auto">Jobs</a>` +
		`<a data-accent-color="" href="/companies/{{.CompanyID}}/questions" data-discover="true" class="rt-Text rt-reset rt-Link rt-r-size-2 rt-r-weight-medium rt-underline-auto">Questions</a>` +
		`<div class="rt-Box" style="margin-left: auto;"><form role="search" aria-label="Search answers"><div class="rt-Flex rt-r-ai-center rt-r-gap-2">` +
		`<div class="rt-TextFieldRoot rt-r-size-2 rt-variant-surface" style="min-width: 12rem;"><input spellcheck="false" type="search" name="q" aria-label="Search answers" placeholder="Search answers" maxlength="200" readonly="" class="rt-reset rt-TextFieldInput"></div>` +
		`<button data-accent-color="" type="submit" data-disabled="true" disabled="" class="rt-reset rt-BaseButton rt-r-size-2 rt-variant-soft rt-Button">Search</button></div></form></div></div></nav>{{end}}` +
		`<div class="rt-Container rt-r-size-4 rt-r-px-4 rt-r-py-5"><div class="rt-ContainerInner"><main><div class="rt-Flex rt-r-fd-column rt-r-gap-4">` +
		`<div class="rt-Flex rt-r-ai-center rt-r-jc-space-between"><h1 class="rt-Heading rt-r-size-6">Jobs</h1>` +
		`<a data-accent-color="" href="/companies/{{.CompanyID}}/jobs/new" data-discover="true" class="rt-reset rt-BaseButton rt-r-size-2 rt-variant-solid rt-Button">Add Job</a></div>` +
		`<label class="rt-Text rt-r-size-2"><div class="rt-Flex rt-r-ai-center rt-r-gap-2"><input type="checkbox" disabled="">Show archived jobs</div></label>` +
		`{{if .Rows}}<div class="rt-TableRoot rt-r-size-2 rt-variant-surface"><div dir="ltr" class="rt-ScrollAreaRoot" style="position: relative; --radix-scroll-area-corner-width: 0px; --radix-scroll-area-corner-height: 0px;">` +
		`<style>[data-radix-scroll-area-viewport]{scrollbar-width:none;-ms-overflow-style:none;-webkit-overflow-scrolling:touch;}[data-radix-scroll-area-viewport]::-webkit-scrollbar{display:none}</style>` +
		`<div data-radix-scroll-area-viewport="" class="rt-ScrollAreaViewport" style="overflow: scroll;"><div style="min-width: 100%; display: table;"><table class="rt-TableRootTable">` +
		`<thead class="rt-TableHeader"><tr class="rt-TableRow"><th scope="col" class="rt-TableCell rt-TableColumnHeaderCell">Title</th>` +
		`<th scope="col" class="rt-TableCell rt-TableColumnHeaderCell">Invited</th><th scope="col" class="rt-TableCell rt-TableColumnHeaderCell">Started</th>` +
		`<th scope="col" class="rt-TableCell rt-TableColumnHeaderCell">Completed</th><th scope="col" class="rt-TableCell rt-TableColumnHeaderCell">Created</th>` +
		`<th scope="col" class="rt-TableCell rt-TableColumnHeaderCell"><span style="position: absolute; border: 0px; width: 1px; height: 1px; padding: 0px; margin: -1px; overflow: hidden; clip: rect(0px, 0px, 0px, 0px); white-space: nowrap; overflow-wrap: normal;">Actions</span></th></tr></thead>` +
		`<tbody class="rt-TableBody">{{range .Rows}}<tr class="rt-TableRow"><th scope="row" class="rt-TableCell rt-TableRowHeaderCell">{{.Title}}</th>` +
		`<td class="rt-TableCell">{{.Invited}}</td><td class="rt-TableCell">{{.Started}}</td><td class="rt-TableCell">{{.Complete}}</td><td class="rt-TableCell">{{.Created}}</td>` +
		`<td class="rt-TableCell rt-r-ta-right"><div class="rt-Flex rt-r-jc-end rt-r-gap-3">` +
		`{{if .Closed}}<span data-accent-color="amber" class="rt-reset rt-Badge rt-r-size-1 rt-variant-soft rt-high-contrast">Closed</span>{{end}}` +
		`<a aria-label="Edit {{.Title}}" data-accent-color="" href="/companies/{{$.CompanyID}}/jobs/{{.ID}}/edit" data-discover="true" class="rt-Text rt-reset rt-Link rt-underline-auto">Edit</a>` +
		`<a aria-label="View {{.Title}}" data-accent-color="" href="/companies/{{$.CompanyID}}/jobs/{{.ID}}" data-discover="true" class="rt-Text rt-reset rt-Link rt-underline-auto">View</a>` +
		`<button data-accent-color="red" type="button" aria-label="Delete {{.Title}}" aria-haspopup="dialog" aria-expanded="false" data-state="closed" data-disabled="true" disabled="" class="rt-reset rt-BaseButton rt-r-size-1 rt-variant-ghost rt-Button">Delete</button>` +
		`</div></td></tr>{{end}}</tbody></table></div></div><div class="rt-ScrollAreaViewportFocusRing"></div></div></div>` +
		`{{else}}<span data-accent-color="gray" class="rt-Text">No jobs yet. <a data-accent-color="" href="/companies/{{.CompanyID}}/jobs/new" data-discover="true" class="rt-Text rt-reset rt-Link rt-underline-auto">Add your first job</a></span>{{end}}` +
		`</div></main></div></div></div></div>`))
