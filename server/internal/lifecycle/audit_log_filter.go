package lifecycle

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"screenroom/server/internal/platform"

	"github.com/pocketbase/dbx"
	validation "github.com/pocketbase/ozzo-validation/v4"
	"github.com/pocketbase/pocketbase/apis"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/router"
)

// A company's audit log, filtered by who acted, the action and a range of days, a page at a time or the whole of it
// as a CSV file:
//
//	GET /api/screenroom/companies/{id}/audit-log?actor=&action=&from=&to=&page=&perPage=
//	GET /api/screenroom/companies/{id}/audit-log.csv?actor=&action=&from=&to=
//
// actor: a manager's user id, or a kind of actor: manager (any manager), candidate, retention, system. Entries
// written before the kind was recorded count as a manager's when they name one, and a retention erasure as
// retention's, as the screen labels them. action: one of the log's actions. from, to: days (YYYY-MM-DD), both
// included, in the company's time zone. Every value is checked against what it may be and then bound as a query
// parameter, never written into a filter or SQL text, so no value can change what is asked; a value that is not
// one of those is refused on its field (400), as is a parameter given twice. The page is what the records API would
// answer for the same rows (sorted newest first, the acting manager expanded as the users rules allow): the screen
// reads it as it read the records API. Anyone but a verified manager of the company gets 404, as for an unknown one.

const (
	auditDefaultPerPage = 50
	auditMaxPerPage     = 200
	auditMaxPage        = 100000
	auditCSVBatch       = 500
)

var (
	auditDay     = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}$`)
	auditActorID = regexp.MustCompile(`^[a-z0-9]{15}$`)
	actorKinds   = []string{actorManager, actorCandidate, actorRetention, actorSystem}
)

// auditFilter is a checked filter of the audit log.
type auditFilter struct {
	actor, action string
	from, until   time.Time // until: the moment after the last day; zero when open
}

func registerAuditLogRoutes(app core.App) {
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		se.Router.GET("/api/screenroom/companies/{id}/audit-log", auditLogPage)
		se.Router.GET("/api/screenroom/companies/{id}/audit-log.csv", auditLogCSV)
		return se.Next()
	})
}

// managedCompany is the route's company when the request's user is a verified manager of it; nil otherwise.
func managedCompany(e *core.RequestEvent) *core.Record {
	user := platform.RequestUser(e)
	if user == nil || !user.Verified() {
		return nil
	}
	company := platform.FindByIdOrNil(e.App, "companies", e.Request.PathValue("id"))
	if company == nil || !platform.IsManager(company, user.Id) {
		return nil
	}
	return company
}

// single is the query's one value of name ("" when absent); ok false when it is given more than once.
func single(query url.Values, name string) (string, bool) {
	values := query[name]
	if len(values) > 1 {
		return "", false
	}
	if len(values) == 0 {
		return "", true
	}
	return values[0], true
}

// parseAuditFilter checks the query's filter; the error names each field that is wrong.
func parseAuditFilter(app core.App, company *core.Record, query url.Values) (auditFilter, error) {
	problems := validation.Errors{}
	var f auditFilter
	value := func(name string) string {
		v, ok := single(query, name)
		if !ok {
			problems[name] = validation.NewError("validation_repeated", "Give one value.")
		}
		return strings.TrimSpace(v)
	}

	if actor := value("actor"); actor != "" {
		if slices.Contains(actorKinds, actor) || auditActorID.MatchString(actor) {
			f.actor = actor
		} else if problems["actor"] == nil {
			problems["actor"] = validation.NewError("validation_invalid_actor", "Choose who acted from the list.")
		}
	}

	if action := value("action"); action != "" {
		if slices.Contains(auditActions(app), action) {
			f.action = action
		} else if problems["action"] == nil {
			problems["action"] = validation.NewError("validation_invalid_action", "Choose an action from the list.")
		}
	}

	zone := platform.CompanyZone(company)
	day := func(name string) (time.Time, bool) {
		text := value(name)
		if text == "" {
			return time.Time{}, false
		}
		t, err := time.ParseInLocation("2006-01-02", text, zone)
		if !auditDay.MatchString(text) || err != nil {
			if problems[name] == nil {
				problems[name] = validation.NewError("validation_invalid_date", "Enter a date as YYYY-MM-DD.")
			}
			return time.Time{}, false
		}
		return t, true
	}
	from, hasFrom := day("from")
	to, hasTo := day("to")
	if hasFrom {
		f.from = from
	}
	if hasTo {
		f.until = to.AddDate(0, 0, 1)
	}
	if hasFrom && hasTo && to.Before(from) {
		problems["to"] = validation.NewError("validation_date_order", "The last day must not be before the first.")
	}

	if len(problems) > 0 {
		return auditFilter{}, router.NewBadRequestError("Please check the filter.", problems)
	}
	return f, nil
}

// auditActions are the audit log's actions, as its schema lists them now.
func auditActions(app core.App) []string {
	collection, err := app.FindCachedCollectionByNameOrId("audit_log")
	if err != nil {
		return nil
	}
	if field, ok := collection.Fields.GetByName("action").(*core.SelectField); ok {
		return field.Values
	}
	return nil
}

// where is the filter as query conditions on the company's entries, every value bound.
func (f auditFilter) where(companyID string) dbx.Expression {
	conditions := []dbx.Expression{dbx.HashExp{"company": companyID}}
	switch f.actor {
	case "":
	case actorManager:
		conditions = append(conditions, dbx.NewExp("(actorKind = 'manager' OR ((actorKind = '' OR actorKind IS NULL) AND actor != ''))"))
	case actorRetention:
		conditions = append(conditions, dbx.NewExp("(actorKind = 'retention' OR ((actorKind = '' OR actorKind IS NULL) AND action = 'retention_erase'))"))
	case actorCandidate, actorSystem:
		conditions = append(conditions, dbx.HashExp{"actorKind": f.actor})
	default:
		conditions = append(conditions, dbx.HashExp{"actor": f.actor})
	}
	if f.action != "" {
		conditions = append(conditions, dbx.HashExp{"action": f.action})
	}
	if !f.from.IsZero() {
		conditions = append(conditions, dbx.NewExp("created >= {:auditFrom}", dbx.Params{"auditFrom": platform.DBTime(f.from)}))
	}
	if !f.until.IsZero() {
		conditions = append(conditions, dbx.NewExp("created < {:auditUntil}", dbx.Params{"auditUntil": platform.DBTime(f.until)}))
	}
	return dbx.And(conditions...)
}

// positiveInt is the query's name as a whole number within [1, max], fallback when absent.
func positiveInt(query url.Values, name string, fallback, max int, problems validation.Errors) int {
	text, ok := single(query, name)
	if !ok {
		problems[name] = validation.NewError("validation_repeated", "Give one value.")
		return fallback
	}
	if text == "" {
		return fallback
	}
	n, err := strconv.Atoi(text)
	if err != nil || n < 1 || n > max {
		problems[name] = validation.NewError("validation_invalid_number", fmt.Sprintf("Enter a whole number from 1 to %d.", max))
		return fallback
	}
	return n
}

func auditLogPage(e *core.RequestEvent) error {
	company := managedCompany(e)
	if company == nil {
		return e.NotFoundError("The requested resource wasn't found.", nil)
	}
	query := e.Request.URL.Query()
	filter, err := parseAuditFilter(e.App, company, query)
	if err != nil {
		return err
	}
	problems := validation.Errors{}
	page := positiveInt(query, "page", 1, auditMaxPage, problems)
	perPage := positiveInt(query, "perPage", auditDefaultPerPage, auditMaxPerPage, problems)
	if len(problems) > 0 {
		return router.NewBadRequestError("Please check the filter.", problems)
	}
	where := filter.where(company.Id)

	var total int
	if err := e.App.DB().Select("count(*)").From("audit_log").Where(where).Row(&total); err != nil {
		return err
	}
	records := []*core.Record{}
	err = e.App.RecordQuery("audit_log").
		Where(where).
		OrderBy("created DESC", "id DESC").
		Limit(int64(perPage)).
		Offset(int64((page - 1) * perPage)).
		All(&records)
	if err != nil {
		return err
	}
	if err := apis.EnrichRecords(e, records, "actor"); err != nil {
		return err
	}
	return e.JSON(http.StatusOK, map[string]any{
		"page":       page,
		"perPage":    perPage,
		"totalItems": total,
		"totalPages": (total + perPage - 1) / perPage,
		"items":      records,
	})
}

// inferredKind is the kind of actor an entry has, or had before the kind was recorded (as the screen labels it).
func inferredKind(entry *core.Record) string {
	if kind := entry.GetString("actorKind"); kind != "" {
		return kind
	}
	if entry.GetString("actor") != "" {
		return actorManager
	}
	if entry.GetString("action") == "retention_erase" {
		return actorRetention
	}
	return ""
}

// auditLogCSV streams every entry the filter matches, newest first, a batch at a time (keyset paging on created
// and id, so a large log never sits in memory at once).
func auditLogCSV(e *core.RequestEvent) error {
	company := managedCompany(e)
	if company == nil {
		return e.NotFoundError("The requested resource wasn't found.", nil)
	}
	filter, err := parseAuditFilter(e.App, company, e.Request.URL.Query())
	if err != nil {
		return err
	}
	zone := platform.CompanyZone(company)
	where := filter.where(company.Id)
	out, err := platform.ServeCSV(e, "audit-log-"+platform.Now(e.App).In(zone).Format("2006-01-02")+".csv")
	if err != nil {
		return err
	}
	if err := out.WriteRow("Time (ISO 8601)", "Time ("+zone.String()+")", "Action", "Actor kind", "Actor id", "Actor name", "Actor e-mail", "Candidate id"); err != nil {
		return err
	}
	lastCreated, lastID := "", ""
	for {
		batch := []*core.Record{}
		q := e.App.RecordQuery("audit_log").Where(where)
		if lastID != "" {
			q = q.AndWhere(dbx.NewExp("(created < {:lastCreated} OR (created = {:lastCreated} AND id < {:lastId}))",
				dbx.Params{"lastCreated": lastCreated, "lastId": lastID}))
		}
		if err := q.OrderBy("created DESC", "id DESC").Limit(auditCSVBatch).All(&batch); err != nil {
			return err
		}
		if len(batch) == 0 {
			break
		}
		// the actor as the records API would expand it for this manager: a name and an e-mail only where the
		// users rules let them see that account
		if err := apis.EnrichRecords(e, batch, "actor"); err != nil {
			return err
		}
		for _, entry := range batch {
			created := entry.GetDateTime("created").Time()
			name, email := "", ""
			if actor := entry.ExpandedOne("actor"); actor != nil {
				name = strings.TrimSpace(actor.GetString("firstName") + " " + actor.GetString("lastName"))
				// PublicExport holds the e-mail only where the account shows it to this manager
				if address, ok := actor.PublicExport()["email"].(string); ok {
					email = address
				}
			}
			err := out.WriteRow(
				created.UTC().Format("2006-01-02T15:04:05.000Z"),
				created.In(zone).Format("2006-01-02 15:04:05"),
				entry.GetString("action"),
				inferredKind(entry),
				entry.GetString("actor"),
				name,
				email,
				entry.GetString("candidateId"),
			)
			if err != nil {
				return err
			}
		}
		if err := out.Flush(); err != nil {
			return err
		}
		last := batch[len(batch)-1]
		lastCreated, lastID = last.GetString("created"), last.Id
		if len(batch) < auditCSVBatch {
			break
		}
	}
	return out.Flush()
}
