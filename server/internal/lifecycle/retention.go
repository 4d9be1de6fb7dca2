package lifecycle

import (
	"screenroom/server/internal/platform"

	"os"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/cron"
	"github.com/pocketbase/pocketbase/tools/hook"
)

// Retention (decisions.md "Data lifetime"): each company keeps its candidates for companies.retentionMonths (0:
// forever). The cron `screenroom_retention` erases (eraseCandidate, nothing else) every candidate of a company with a
// period whose job has been closed for longer than the period, or whose last activity is older than it. Now is the
// server's clock (platform.Now), so the tests' clock moves it.
//
// It runs daily at 03:30 UTC by default; RETENTION_SCHEDULE (a cron expression) changes that. The tests set one that
// never comes ("0 0 31 2 *") and start runs through the crons API. A malformed one stops PocketBase from starting
// (MustAdd panics). Each run logs one "screenroom_retention" entry with what it deleted: the tests read it to know a
// run has finished, as the crons API only starts one.
//
// A candidate's last activity is the latest of: being invited (created), any change to the candidate record (its
// `updated`: consent, answers counted, a decision, a deadline extended, a withdrawal), an answer sent, a question
// opened (its row's `updated`, and its openedAt, stamped on the server's clock), a take uploaded, a rating or comment
// written or changed, and a share link made. README "Retention" says the same in words.

// retentionMonths are the periods a company may choose, in months (0: keep forever); the company edit screen offers
// the same list (src/features/companies/api/retention.ts).
var retentionMonths = []int{0, 3, 6, 12, 24, 36}

const (
	retentionMessage = "Choose how long to keep candidates from the list."
	// defaultRetentionSchedule: every day at 03:30 UTC.
	defaultRetentionSchedule = "30 3 * * *"
	retentionJobID           = "screenroom_retention"
	// retentionPreview is how many due candidates the company edit screen lists.
	retentionPreview = 5
	// nextRunHorizonDays: a schedule that does not fire within this many days has no next run to show.
	nextRunHorizonDays = 400
)

func registerRetention(app core.App) {
	app.Cron().MustAdd(retentionJobID, retentionSchedule(), func() {
		deleted, failed := runRetention(app)
		app.Logger().Info(retentionJobID, "deleted", deleted, "failed", failed)
	})

	// Only the company's managers change the period (the update rule); it must be one of the offered ones. After the
	// other validators of a company (priority 1), as the hook this replaces ran after them: when a save breaks
	// several rules, the message the SPA shows stays the same.
	app.OnRecordValidate("companies").Bind(&hook.Handler[*core.RecordEvent]{
		Priority: 1,
		Func: func(e *core.RecordEvent) error {
			if !slices.Contains(retentionMonths, e.Record.GetInt("retentionMonths")) {
				return platform.FieldError("retentionMonths", retentionMessage, "validation_invalid_value")
			}
			return e.Next()
		},
	})

	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		se.Router.GET("/api/screenroom/companies/{id}/retention", retentionPreviewRoute)
		return se.Next()
	})
}

func retentionSchedule() string {
	if expression := strings.TrimSpace(os.Getenv("RETENTION_SCHEDULE")); expression != "" {
		return expression
	}
	return defaultRetentionSchedule
}

// registeredRetentionSchedule is the expression PocketBase actually runs, else the configured one.
func registeredRetentionSchedule(app core.App) string {
	for _, job := range app.Cron().Jobs() {
		if job != nil && job.Id() == retentionJobID {
			return job.Expression()
		}
	}
	return retentionSchedule()
}

type retentionCandidate struct {
	ID        string `json:"id"`
	FirstName string `json:"firstName"`
	LastName  string `json:"lastName"`
	Email     string `json:"email"`
	JobID     string `json:"jobId"`
	JobTitle  string `json:"jobTitle"`
	Reason    string `json:"reason"`
	Since     string `json:"since"`
}

// GET /api/screenroom/companies/{id}/retention: for the company edit screen, what the next run will delete and when.
// 200 { retentionMonths, nextRunAt (” when no run is scheduled within nextRunHorizonDays), count, candidates: the
// first retentionPreview of them, oldest reason first }. Without a next run, who is due now. Only the company's
// managers (its update rule); anyone else, and an unknown company, gets the same 404.
func retentionPreviewRoute(e *core.RequestEvent) error {
	notFound := func() error { return e.NotFoundError("The requested resource wasn't found.", nil) }
	if platform.RequestUser(e) == nil {
		return notFound()
	}
	company := platform.FindByIdOrNil(e.App, "companies", e.Request.PathValue("id"))
	if company == nil {
		return notFound()
	}
	info, err := e.RequestInfo()
	if err != nil {
		return notFound()
	}
	if ok, err := e.App.CanAccessRecord(company, info, company.Collection().UpdateRule); err != nil || !ok {
		return notFound()
	}

	now := platform.Now(e.App).Truncate(time.Millisecond)
	next, scheduled := nextRun(registeredRetentionSchedule(e.App), now)
	at := now
	nextRunAt := ""
	if scheduled {
		at = next
		nextRunAt = platform.DBTime(next)
	}
	var due []dueCandidate
	if company.GetInt("retentionMonths") > 0 {
		if due, err = dueCandidates(e.App, at, company.Id); err != nil {
			return err
		}
	}
	candidates := make([]retentionCandidate, 0, min(len(due), retentionPreview))
	for _, c := range due[:min(len(due), retentionPreview)] {
		candidates = append(candidates, retentionCandidate{
			ID: c.ID, FirstName: c.FirstName, LastName: c.LastName, Email: c.Email,
			JobID: c.Job, JobTitle: c.JobTitle, Reason: c.reason, Since: c.since,
		})
	}
	return e.JSON(200, map[string]any{
		"retentionMonths": company.GetInt("retentionMonths"),
		"nextRunAt":       nextRunAt,
		"count":           len(due),
		"candidates":      candidates,
	})
}

// dueCandidate is a candidate whose company's period is over for them: reason "job_closed" (since the job was
// closed) or "inactive" (since their last activity); since is PocketBase's date text.
type dueCandidate struct {
	ID           string `db:"id"`
	Email        string `db:"email"`
	FirstName    string `db:"firstName"`
	LastName     string `db:"lastName"`
	Job          string `db:"job"`
	JobTitle     string `db:"jobTitle"`
	ClosedAt     string `db:"closedAt"`
	Company      string `db:"company"`
	Months       int    `db:"months"`
	LastActivity string `db:"lastActivity"`

	reason, since string
}

// lastActivitySQL is the latest moment of each kind of activity of candidate c, as PocketBase's date texts (” when
// none): MAX() of SQLite compares these texts in time order, and is NULL if any argument is, hence the COALESCEs.
const lastActivitySQL = `MAX(
  COALESCE(c.created, ''), COALESCE(c.updated, ''),
  COALESCE((SELECT MAX(a.created) FROM answers a WHERE a.candidate = c.id), ''),
  COALESCE((SELECT MAX(p.updated) FROM question_progress p WHERE p.candidate = c.id), ''),
  COALESCE((SELECT MAX(p.openedAt) FROM question_progress p WHERE p.candidate = c.id), ''),
  COALESCE((SELECT MAX(t.updated) FROM staged_takes t WHERE t.candidate = c.id), ''),
  COALESCE((SELECT MAX(r.updated) FROM ratings r WHERE r.candidate = c.id), ''),
  COALESCE((SELECT MAX(m.updated) FROM comments m WHERE m.candidate = c.id), ''),
  COALESCE((SELECT MAX(s.created) FROM share_links s WHERE s.candidate = c.id), '')
)`

// dueCandidates are the candidates due for deletion at `at` (of every company, or only of companyID), oldest reason
// first.
func dueCandidates(app core.App, at time.Time, companyID string) ([]dueCandidate, error) {
	var rows []dueCandidate
	err := app.DB().NewQuery(`SELECT c.id AS id, c.email AS email, COALESCE(c.firstName, '') AS firstName,
		COALESCE(c.lastName, '') AS lastName, j.id AS job, j.title AS jobTitle, COALESCE(j.closedAt, '') AS closedAt,
		co.id AS company, CAST(co.retentionMonths AS INTEGER) AS months, ` + lastActivitySQL + ` AS lastActivity
		FROM candidates c JOIN jobs j ON j.id = c.job JOIN companies co ON co.id = j.company
		WHERE COALESCE(co.retentionMonths, 0) > 0 AND ({:company} = '' OR co.id = {:company})`).
		Bind(dbx.Params{"company": companyID}).
		All(&rows)
	if err != nil {
		return nil, err
	}
	due := rows[:0]
	for _, row := range rows {
		cutoff := monthsBefore(at, row.Months)
		if closed, ok := platform.ParseDBTime(row.ClosedAt); ok && closed.Before(cutoff) {
			row.reason, row.since = "job_closed", row.ClosedAt
		} else if active, ok := platform.ParseDBTime(row.LastActivity); ok && active.Before(cutoff) {
			row.reason, row.since = "inactive", row.LastActivity
		} else {
			continue
		}
		due = append(due, row)
	}
	sort.SliceStable(due, func(i, j int) bool { return due[i].since < due[j].since })
	return due, nil
}

// runRetention is one run of the cron: every due candidate erased. One that cannot be erased now (a locked row)
// does not keep the others; the next run tries again.
func runRetention(app core.App) (deleted, failed int) {
	due, err := dueCandidates(app, platform.Now(app).Truncate(time.Millisecond), "")
	if err != nil {
		app.Logger().Error("retention could not list the due candidates", "error", err.Error())
		return 0, 0
	}
	for _, candidate := range due {
		erased, err := eraseCandidate(app, candidate.ID, candidateRemoval{action: "retention_erase", kind: actorRetention}, nil)
		if err != nil {
			failed++
			app.Logger().Error("retention could not delete a candidate", "candidate", candidate.ID, "error", err.Error())
		} else if erased != nil {
			deleted++
		}
	}
	return deleted, failed
}

// monthsBefore is t moved back by `months` calendar months, in UTC; a day the earlier month lacks (the 31st of a
// shorter month) becomes its last day.
func monthsBefore(t time.Time, months int) time.Time {
	t = t.UTC()
	year, month, day := t.Date()
	first := time.Date(year, month-time.Month(months), 1, t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), time.UTC)
	last := time.Date(first.Year(), first.Month()+1, 0, 0, 0, 0, 0, time.UTC).Day()
	return first.AddDate(0, 0, min(day, last)-1)
}

// nextRun is the first minute after `after` at which PocketBase's cron runs `expression` (its schedule, its clock:
// UTC, as app.Cron() is never given another timezone), looking up to nextRunHorizonDays days ahead from after's day;
// false when it does not fire in that time (the tests' "0 0 31 2 *") or is not a schedule PocketBase reads.
func nextRun(expression string, after time.Time) (time.Time, bool) {
	schedule, err := cron.NewSchedule(expression)
	if err != nil {
		return time.Time{}, false
	}
	t := after.UTC().Truncate(time.Minute).Add(time.Minute)
	year, month, day := t.Date()
	end := time.Date(year, month, day+nextRunHorizonDays+1, 0, 0, 0, 0, time.UTC)
	for t.Before(end) {
		if schedule.IsDue(cron.NewMoment(t)) {
			return t, true
		}
		// a day (or hour) the schedule skips is skipped whole rather than a minute at a time: every request of the
		// tests' server, whose schedule never fires, walks the whole horizon
		_, dayDue := schedule.Days[t.Day()]
		_, monthDue := schedule.Months[int(t.Month())]
		_, weekdayDue := schedule.DaysOfWeek[int(t.Weekday())]
		_, hourDue := schedule.Hours[t.Hour()]
		switch {
		case !dayDue || !monthDue || !weekdayDue:
			y, m, d := t.Date()
			t = time.Date(y, m, d+1, 0, 0, 0, 0, time.UTC)
		case !hourDue:
			t = t.Truncate(time.Hour).Add(time.Hour)
		default:
			t = t.Add(time.Minute)
		}
	}
	return time.Time{}, false
}
