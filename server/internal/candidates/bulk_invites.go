package candidates

import (
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"time"

	"github.com/pocketbase/dbx"
	validation "github.com/pocketbase/ozzo-validation/v4"
	"github.com/pocketbase/pocketbase/apis"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/router"

	"screenroom/server/internal/jobs"
	"screenroom/server/internal/platform"
)

// Invites from a CSV file. The SPA parses the file and sends its rows in chunks:
// POST /api/screenroom/jobs/{id}/invites/bulk  { importId, rows: [{ email, firstName?, lastName?, deadline? }] }
// -> 200 { results: [{ status: "created", candidate } | { status: "skipped" | "failed", reason, message }], created,
//    skipped, failed, hourlyCap }, one result per row in the order sent.
//   - Only a manager of the job's company (the candidates create rule); 404 otherwise, as for a job they cannot see.
//   - A closed job refuses the whole import: 400 on `job`, nothing created.
//   - One import (the same importId for the same job) is ONE action against the manager's invite rate limit
//     (decisions.md), and holds at most 1,000 distinct addresses; each address still draws on its mail budget.
//   - Candidates invited count against the manager's hourly cap, across imports and jobs (BULK_CANDIDATES_PER_HOUR,
//     platform.TakeBulkCandidates). An import is processed as far as the cap allows, as the 1,000-row cap leaves
//     the requests before it standing: rows that would be created past it fail ("hourly_cap") and are not created,
//     and a request that finds nothing left is refused whole, before anything else is spent (429, data.rows
//     {code "bulk_hourly_cap", params {limit, remaining, availableAt}}). Every answer says what is left:
//     hourlyCap {limit, remaining, availableAt}.
//   - Each row is its own save, with the rules of a single invite (the candidates hooks: the stored e-mail, one
//     candidate per job and e-mail, the server's key, the default deadline) and its interview e-mail queued, so the
//     request never waits on SMTP. A row that fails loses nothing of the rows before it, and a file sent again finds
//     its created rows "already invited", so nobody is invited twice.

const (
	maxImportRows = 1000 // per import (decisions.md: capped at 1,000 rows an import)
	importTTL     = 6 * time.Hour
	maxNameLength = 100
	importsKey    = "screenroomImports"
)

var importIDPattern = regexp.MustCompile(`^[A-Za-z0-9_-]{8,64}$`)

// jsSpace is what a JS regular expression's \s matches.
const jsSpace = `\t\n\v\f\r \x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}`

// emailPattern: the SPA's preview uses the same pattern (src/features/invites/lib/csv-invites.ts); PocketBase's e-mail
// field validates again on save.
var emailPattern = regexp.MustCompile(`^[^` + jsSpace + `@<>()\[\]\\,;:"]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$`)

var rowMessages = map[string]string{
	"invalid_email":     "Not a valid e-mail address",
	"duplicate_in_file": "Duplicate of an earlier row in the file",
	"already_invited":   "Already invited to this job",
	"invalid_deadline":  "The deadline is not a date",
	"past_deadline":     "The deadline must be in the future",
	"invalid_name":      "The name is longer than 100 characters",
	"multi_line":        "This field must be on one line.",
	"too_many_mails":    platform.TooManyMails,
	"hourly_cap":        "Over the limit of candidates you can invite in an hour. Send it again later.",
	"error":             "Something went wrong while processing your request.",
}

type rowResult struct {
	Status    string `json:"status"`
	Reason    string `json:"reason,omitempty"`
	Message   string `json:"message,omitempty"`
	Candidate string `json:"candidate,omitempty"`
}

func rowRefused(status, reason string) rowResult {
	return rowResult{Status: status, Reason: reason, Message: rowMessages[reason]}
}

func registerBulkInvites(app core.App) {
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		se.Router.POST("/api/screenroom/jobs/{id}/invites/bulk", bulkInvite).Bind(apis.RequireAuth("users"))
		return se.Next()
	})
}

func bulkInvite(e *core.RequestEvent) error {
	user := platform.RequestUser(e)
	if user == nil {
		return router.NewUnauthorizedError("Please sign in.", nil)
	}
	job := platform.FindByIdOrNil(e.App, "jobs", e.Request.PathValue("id"))
	if job == nil || !platform.ManagesJob(e.App, job.Id, user.Id) {
		return router.NewNotFoundError("This job does not exist.", nil)
	}
	// the whole import is refused before any row
	if err := jobs.RequireOpenForInvites(e.App, job.Id); err != nil {
		return err
	}

	info, err := e.RequestInfo()
	if err != nil {
		return err
	}
	importID := platform.JSText(info.Body["importId"])
	if !importIDPattern.MatchString(importID) {
		return router.NewBadRequestError("The import has no valid id.", nil)
	}
	rows, _ := info.Body["rows"].([]any)
	if len(rows) == 0 {
		return router.NewBadRequestError("There are no rows to invite.", nil)
	}
	if len(rows) > maxImportRows {
		return router.NewBadRequestError(fmt.Sprintf("An import holds at most %d rows.", maxImportRows), nil)
	}

	// the manager's hourly cap: as many as the request could create, given back below where not used
	grant := platform.TakeBulkCandidates(e.App, user.Id, len(rows))
	if grant.Taken == 0 {
		message := platform.BulkCapMessage(grant)
		return e.JSON(http.StatusTooManyRequests, map[string]any{
			"status":  http.StatusTooManyRequests,
			"message": message,
			"data":    map[string]any{"rows": map[string]any{"code": "bulk_hourly_cap", "message": message, "params": grant.Cap()}},
		})
	}
	allowance := grant.Taken
	results, err := inviteRows(e.App, user.Id, job, importID, rows, &allowance)
	platform.GiveBackBulkCandidates(e.App, user.Id, grant.Minute, allowance)
	if err != nil {
		return err
	}

	counts := map[string]int{}
	for _, r := range results {
		counts[r.Status]++
	}
	return e.JSON(http.StatusOK, struct {
		Results   []rowResult      `json:"results"`
		Created   int              `json:"created"`
		Skipped   int              `json:"skipped"`
		Failed    int              `json:"failed"`
		HourlyCap platform.BulkCap `json:"hourlyCap"`
	}{results, counts["created"], counts["skipped"], counts["failed"], platform.TakeBulkCandidates(e.App, user.Id, 0).Cap()})
}

// inviteRows registers the request's addresses with its import (a new import costs the manager one invite action)
// and invites each row; allowance is what is left of the hourly grant.
func inviteRows(app core.App, userID string, job *core.Record, importID string, rows []any, allowance *int) ([]rowResult, error) {
	emails := make([]string, 0, len(rows))
	for _, row := range rows {
		if email := platform.NormalizeEmail(platform.JSText(rowField(row, "email"))); email != "" {
			emails = append(emails, email)
		}
	}
	isNew, err := registerImport(userID, job.Id, importID, emails, app)
	if err != nil {
		return nil, err
	}
	if isNew {
		if err := platform.RequireInviteAction(app, userID); err != nil {
			forgetImport(app, userID, job.Id, importID)
			return nil, err
		}
	}
	seen := map[string]bool{}
	results := make([]rowResult, 0, len(rows))
	for _, row := range rows {
		result, err := inviteRow(app, job, row, seen, allowance)
		if err != nil {
			return nil, err
		}
		results = append(results, result)
	}
	return results, nil
}

// bulkImport is what the server remembers of an import: its addresses, for importTTL after its last request.
type bulkImport struct {
	at     time.Time
	emails map[string]bool
}

// registerImport adds the request's addresses to its import (user, job, import id) and reports whether the import
// is new. 400 when the import would exceed maxImportRows distinct addresses.
func registerImport(userID, jobID, importID string, emails []string, app core.App) (isNew bool, err error) {
	now := time.Now()
	key := userID + ":" + jobID + ":" + importID
	over := false
	app.Store().SetFunc(importsKey, func(old any) any {
		all, _ := old.(map[string]*bulkImport)
		if all == nil {
			all = map[string]*bulkImport{}
		}
		for k, entry := range all {
			if now.Sub(entry.at) > importTTL {
				delete(all, k)
			}
		}
		entry := all[key]
		isNew = entry == nil
		known := 0
		if entry != nil {
			known = len(entry.emails)
		}
		added := map[string]bool{}
		for _, email := range emails {
			if (entry == nil || !entry.emails[email]) && !added[email] {
				added[email] = true
			}
		}
		over = known+len(added) > maxImportRows
		if !over {
			if entry == nil {
				entry = &bulkImport{emails: map[string]bool{}}
				all[key] = entry
			}
			for email := range added {
				entry.emails[email] = true
			}
			entry.at = now
		}
		return all
	})
	if over {
		return false, router.NewBadRequestError(fmt.Sprintf("An import holds at most %d rows.", maxImportRows), nil)
	}
	return isNew, nil
}

// forgetImport forgets a new import whose first request was refused (so it costs nothing).
func forgetImport(app core.App, userID, jobID, importID string) {
	app.Store().SetFunc(importsKey, func(old any) any {
		all, _ := old.(map[string]*bulkImport)
		delete(all, userID+":"+jobID+":"+importID)
		return all
	})
}

// inviteRow invites one row. seen holds the addresses of the request's earlier rows; allowance the candidates the
// manager may still invite in this request: a row that would be created past it fails ("hourly_cap") and is not
// created, while rows that would be skipped anyway are still reported as skipped.
func inviteRow(app core.App, job *core.Record, row any, seen map[string]bool, allowance *int) (rowResult, error) {
	email := platform.NormalizeEmail(platform.JSText(rowField(row, "email")))
	if !emailPattern.MatchString(email) || platform.JSLength(email) > 254 {
		return rowRefused("skipped", "invalid_email"), nil
	}
	if seen[email] {
		return rowRefused("skipped", "duplicate_in_file"), nil
	}
	seen[email] = true
	firstName := platform.JSTrim(platform.JSText(rowField(row, "firstName")))
	lastName := platform.JSTrim(platform.JSText(rowField(row, "lastName")))
	if platform.JSLength(firstName) > maxNameLength || platform.JSLength(lastName) > maxNameLength {
		return rowRefused("skipped", "invalid_name"), nil
	}
	// a bare date is the end of that day (UTC)
	deadlineText := platform.JSTrim(platform.JSString(rowField(row, "deadline")))
	var deadline int64
	if deadlineText != "" {
		if bareDate.MatchString(deadlineText) {
			deadlineText += "T23:59:59.000Z"
		}
		ms, ok := parseDateText(deadlineText)
		if !ok {
			return rowRefused("skipped", "invalid_deadline"), nil
		}
		// a deadline set by a manager must be in the future (the server's clock); an empty one takes the job's
		// responseDays (the candidates create hook)
		if ms <= platform.NowMs(app) {
			return rowRefused("skipped", "past_deadline"), nil
		}
		deadline = ms
	}

	collection, err := app.FindCachedCollectionByNameOrId("candidates")
	if err != nil {
		return rowResult{}, err
	}
	candidate := core.NewRecord(collection)
	candidate.Set("job", job.Id)
	candidate.Set("email", email)
	candidate.Set("firstName", firstName)
	candidate.Set("lastName", lastName)
	if deadlineText != "" {
		candidate.Set("deadline", platform.DBTime(time.UnixMilli(deadline)))
	}
	// a line break in a name: the save would refuse it; said before the address's budget is spent
	if len(platform.SingleLineErrorFields(candidate)) > 0 {
		return rowRefused("skipped", "multi_line"), nil
	}
	existing, err := app.CountRecords("candidates", dbx.HashExp{"job": job.Id, "email": email})
	if err != nil {
		return rowResult{}, err
	}
	if existing > 0 {
		return rowRefused("skipped", "already_invited"), nil
	}
	if *allowance <= 0 {
		return rowRefused("failed", "hourly_cap"), nil
	}
	if !platform.TakeMailBudget(app, email, "invite") {
		return rowRefused("failed", "too_many_mails"), nil
	}
	// the save runs the candidates hooks: key, default deadline, the duplicate check, and the queued interview e-mail
	if err := app.Save(candidate); err != nil {
		if isDuplicateInvite(err) {
			return rowRefused("skipped", "already_invited"), nil
		}
		app.Logger().Error("csv invite: a row failed", "job", job.Id, "error", err.Error())
		return rowRefused("failed", "error"), nil
	}
	*allowance--
	return rowResult{Status: "created", Candidate: candidate.Id}, nil
}

var bareDate = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)

// isDuplicateInvite: the save was refused because the job already has this address (the duplicate check's words,
// or the unique index's code when another request stored it in between).
func isDuplicateInvite(err error) bool {
	if strings.Contains(err.Error(), "already been invited") {
		return true
	}
	var errs validation.Errors
	if errors.As(err, &errs) {
		for _, fieldErr := range errs {
			var ve validation.Error
			if errors.As(fieldErr, &ve) && ve.Code() == "validation_not_unique" {
				return true
			}
		}
	}
	return false
}

// rowField is a row's field, or nil when the row is not an object.
func rowField(row any, name string) any {
	if fields, ok := row.(map[string]any); ok {
		return fields[name]
	}
	return nil
}
