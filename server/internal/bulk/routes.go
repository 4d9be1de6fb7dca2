package bulk

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/pocketbase/pocketbase/apis"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/router"

	"screenroom/server/internal/candidates"
	"screenroom/server/internal/lifecycle"
	"screenroom/server/internal/messages"
	"screenroom/server/internal/pipeline"
	"screenroom/server/internal/platform"
)

// The routes, each POST /api/screenroom/jobs/{id}/bulk/<action> with a JSON body naming the candidates: either
// {"candidates": [id, ...]} (the rows selected) or {"filter": {"status", "decision", "q"}} (all that match the
// pipeline's filter, resolved here, on the job of the path and nothing else), plus what the action needs:
//
//	decide          {"decision": "advance" | "hold" | "reject" | ""}   pipeline.SetDecision, as the decision route
//	resend-invite                                                   candidates.ResendRefusal + SendInvitationAgain
//	message         {"kind": "advance" | "reject"}                   messages.SendDecisionMessage
//	erase                                                           lifecycle.EraseByManager (an audit entry each)
//	export          (answers a zip)                                 lifecycle.ExportCandidates (an audit entry each)
//
// Who: a verified account managing the job's company today. No session of a product account (anonymous, a
// candidate's key): 401; anyone else, an unknown job and another company's job alike: 404, before the body is read.
//
// What a request costs, decided before any candidate is touched and in this order: at most MaxCandidates candidates
// (400 on candidates or filter, saying how many it was); the manager's hourly bulk allowance
// (platform.TakeBulkCandidates, BULK_CANDIDATES_PER_HOUR, shared with CSV invites) is taken for every candidate
// found (a request that finds nothing left is refused whole: 429, bulk_hourly_cap, saying how many are left and
// when; one that finds fewer left than it names acts on the first ones and reports the rest), and given back for
// every candidate the action did not affect; then one action of the manager's rate limit for that kind of action
// (resend: the resend budget of the single route; message: the decision message budget of the single route,
// RATE_LIMIT_MESSAGES; decide, erase, export: platform.RequireBulkAction), 429 when spent, the allowance given back.
//
// Each candidate is then acted on by the single route's own function, so the rules are the same one at a time or a
// thousand at once; a candidate the rules refuse is reported with the single route's own words and nothing done.
// Ids that are no candidate of this job (unknown, erased since, another job's or another company's) are reported
// alike, as not found, so nothing is told about them and nothing of theirs is touched.
//
// The answer of every action but export is a stream of JSON lines (application/x-ndjson), so the screen shows
// progress while a long one runs: {"type":"start","total":N}, then one {"type":"row",...} per candidate as it is
// done (id, email, status "done" | "skipped" | "failed", and for the others code and message), then
// {"type":"end","done","skipped","failed","hourlyCap"}. Refusals of the whole request come before the stream as
// ordinary JSON errors. The export answers the zip, with the counts in X-Bulk-* headers.

const routePrefix = "/api/screenroom/jobs/{id}/bulk/"

// rowResult is one candidate's line of an action's answer.
type rowResult struct {
	Type    string `json:"type"`
	ID      string `json:"id"`
	Email   string `json:"email"`
	Status  string `json:"status"`
	Code    string `json:"code,omitempty"`
	Message string `json:"message,omitempty"`
}

// actOn does the action to one candidate (its id; the function reads it afresh) for manager; a refusal of the single
// route's rules is an *router.ApiError below 500, anything else a failure. changed false: the candidate was already
// as asked (a decision it had), nothing done.
type actOn func(app core.App, manager *core.Record, candidateID string) (changed bool, err error)

// action is one bulk route's own part.
type action struct {
	path string
	// read checks the action's own fields of the body; the function it answers acts on one candidate
	read func(body map[string]any) (actOn, error)
	// budget takes the one action the request costs from the manager's rate limit for it
	budget func(app core.App, userID string) error
}

var actions = []action{
	{
		path: "decide",
		read: func(body map[string]any) (actOn, error) {
			decision, isText := body["decision"].(string)
			if !isText || !pipeline.IsDecision(decision) {
				return nil, pipeline.DecisionFieldError()
			}
			return func(app core.App, manager *core.Record, candidateID string) (bool, error) {
				saved, changed, err := pipeline.SetDecision(app, candidateID, decision, manager.Id)
				if err == nil && saved == nil {
					return false, errNotFound
				}
				return changed, err
			}, nil
		},
		budget: platform.RequireBulkAction,
	},
	{
		path: "resend-invite",
		read: func(map[string]any) (actOn, error) {
			return func(app core.App, _ *core.Record, candidateID string) (bool, error) {
				candidate := platform.FindByIdOrNil(app, "candidates", candidateID)
				if candidate == nil {
					return false, errNotFound
				}
				if err := candidates.ResendRefusal(app, candidate); err != nil {
					return false, err
				}
				return true, candidates.SendInvitationAgain(app, candidate)
			}, nil
		},
		budget: platform.RequireResendBudget,
	},
	{
		path: "message",
		read: func(body map[string]any) (actOn, error) {
			kind, _ := body["kind"].(string)
			if !messages.IsKind(kind) {
				return nil, messages.KindFieldError()
			}
			return func(app core.App, manager *core.Record, candidateID string) (bool, error) {
				candidate := platform.FindByIdOrNil(app, "candidates", candidateID)
				if candidate == nil {
					return false, errNotFound
				}
				return true, messages.SendDecisionMessage(app, manager, candidate, kind)
			}, nil
		},
		budget: platform.RequireDecisionMessageAction,
	},
	{
		path: "erase",
		read: func(map[string]any) (actOn, error) {
			return func(app core.App, manager *core.Record, candidateID string) (bool, error) {
				erased, err := lifecycle.EraseByManager(app, candidateID, manager.Id)
				if err == nil && erased == nil {
					return false, errNotFound
				}
				return true, err
			}, nil
		},
		budget: platform.RequireBulkAction,
	},
}

// errNotFound is a candidate of the selection that is not (any more) in the job.
var errNotFound = router.NewNotFoundError("This candidate is no longer in this job.", nil)

const (
	codeNotFound   = "not_found"
	codeHourlyCap  = "bulk_hourly_cap"
	codeUnchanged  = "unchanged"
	codeTooMany    = "too_many_mails"
	failureMessage = "Something went wrong with this candidate. Try again later."
)

func registerRoutes(app core.App) {
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		for _, a := range actions {
			se.Router.POST(routePrefix+a.path, func(e *core.RequestEvent) error { return runAction(e, a) }).
				Bind(apis.RequireAuth("users"), apis.BodyLimit(platform.BulkRequestMaxBytes))
		}
		se.Router.POST(routePrefix+"export", exportRoute).
			Bind(apis.RequireAuth("users"), apis.BodyLimit(platform.BulkRequestMaxBytes))
		return se.Next()
	})
}

// request is what every bulk route reads before it acts: the manager, the job, the body, the candidates found and
// the ids that are none of the job's.
type request struct {
	manager *core.Record
	job     *core.Record
	body    map[string]any
	found   []pipeline.Match
	missing []string
}

// readRequest decides who may act (404 for anyone but a verified manager of the job's company) and what on (400s
// on the selection), then reads the body's own fields with read.
func readRequest(e *core.RequestEvent, read func(body map[string]any) error) (*request, error) {
	notFound := router.NewNotFoundError("The requested resource wasn't found.", nil)
	manager := platform.RequestUser(e)
	if manager == nil || !manager.Verified() {
		return nil, notFound
	}
	job := platform.FindByIdOrNil(e.App, "jobs", e.Request.PathValue("id"))
	if job == nil || !platform.ManagesJob(e.App, job.Id, manager.Id) {
		return nil, notFound
	}
	info, err := e.RequestInfo()
	if err != nil {
		return nil, err
	}
	sel, err := parseSelection(info.Body)
	if err != nil {
		return nil, err
	}
	if read != nil {
		if err := read(info.Body); err != nil {
			return nil, err
		}
	}
	found, missing, err := resolve(e.App, job.Id, sel)
	if err != nil {
		return nil, err
	}
	return &request{manager: manager, job: job, body: info.Body, found: found, missing: missing}, nil
}

// capRefusal is the 429 of a request that finds the manager's hourly allowance spent.
func capRefusal(e *core.RequestEvent, grant platform.BulkAllowance) error {
	message := platform.BulkActionCapMessage(grant)
	return e.JSON(http.StatusTooManyRequests, map[string]any{
		"status":  http.StatusTooManyRequests,
		"message": message,
		"data":    map[string]any{"candidates": map[string]any{"code": codeHourlyCap, "message": message, "params": grant.Cap()}},
	})
}

func runAction(e *core.RequestEvent, a action) error {
	var act actOn
	req, err := readRequest(e, func(body map[string]any) error {
		var err error
		act, err = a.read(body)
		return err
	})
	if err != nil {
		return err
	}
	userID := req.manager.Id
	grant := platform.TakeBulkCandidates(e.App, userID, len(req.found))
	if len(req.found) > 0 && grant.Taken == 0 {
		return capRefusal(e, grant)
	}
	if err := a.budget(e.App, userID); err != nil {
		platform.GiveBackBulkCandidates(e.App, userID, grant.Minute, grant.Taken)
		return err
	}

	out := newStream(e)
	out.write(map[string]any{"type": "start", "total": len(req.missing) + len(req.found)})
	counts := map[string]int{}
	emit := func(r rowResult) {
		r.Type = "row"
		counts[r.Status]++
		out.write(r)
	}
	for _, id := range req.missing {
		emit(rowResult{ID: id, Status: "skipped", Code: codeNotFound, Message: errNotFound.Message})
	}
	unused := grant.Taken
	capLeft := platform.BulkActionCapMessage(grant)
	for i, match := range req.found {
		if i >= grant.Taken {
			emit(rowResult{ID: match.ID, Email: match.Email, Status: "skipped", Code: codeHourlyCap, Message: capLeft})
			continue
		}
		row := rowResult{ID: match.ID, Email: match.Email}
		changed, err := act(e.App, req.manager, match.ID)
		switch {
		case err == nil && changed:
			row.Status = "done"
			unused--
		case err == nil:
			row.Status, row.Code, row.Message = "skipped", codeUnchanged, "It already was so: nothing changed."
		default:
			row.Status, row.Code, row.Message = refusalOf(e.App, err)
		}
		emit(row)
	}
	platform.GiveBackBulkCandidates(e.App, userID, grant.Minute, unused)
	out.write(map[string]any{
		"type": "end", "done": counts["done"], "skipped": counts["skipped"], "failed": counts["failed"],
		"hourlyCap": platform.TakeBulkCandidates(e.App, userID, 0).Cap(),
	})
	return nil
}

// refusalOf is a candidate's line for err: the single route's refusal (a 4xx) with its code and words, as skipped;
// anything else failed, logged, with words of the product's own.
func refusalOf(app core.App, err error) (status, code, message string) {
	var apiErr *router.ApiError
	if errors.As(err, &apiErr) && apiErr.Status < 500 {
		code, message = "refused", apiErr.Message
		switch apiErr.Status {
		case http.StatusNotFound:
			code = codeNotFound
		case http.StatusTooManyRequests:
			code = codeTooMany
		}
		for _, detail := range apiErr.Data {
			if item, ok := detail.(map[string]any); ok {
				if c, ok := item["code"].(string); ok && c != "" {
					code = c
				}
				if m, ok := item["message"].(string); ok && m != "" {
					message = m
				}
				break
			}
		}
		return "skipped", code, message
	}
	app.Logger().Error("bulk: a candidate could not be acted on", "error", err.Error())
	return "failed", "failed", failureMessage
}

// stream writes JSON lines to a response, each flushed as it is written; a long action keeps its connection while
// it makes progress (each line gets the server's whole write timeout).
type stream struct {
	e     *core.RequestEvent
	enc   *json.Encoder
	gone  bool
	ready bool
}

func newStream(e *core.RequestEvent) *stream {
	return &stream{e: e, enc: json.NewEncoder(e.Response)}
}

func (s *stream) write(line any) {
	if s.gone {
		// the manager left: the action still finishes what it was asked, nothing half done
		return
	}
	if !s.ready {
		header := s.e.Response.Header()
		header.Set("Content-Type", "application/x-ndjson; charset=utf-8")
		header.Set("Cache-Control", "no-store")
		// a reverse proxy (nginx) passes each line at once instead of holding the answer until it ends
		header.Set("X-Accel-Buffering", "no")
		s.e.Response.WriteHeader(http.StatusOK)
		s.ready = true
	}
	_ = http.NewResponseController(s.e.Response).SetWriteDeadline(time.Now().Add(5 * time.Minute))
	if err := s.enc.Encode(line); err != nil {
		s.gone = true
		return
	}
	if err := s.e.Flush(); err != nil {
		s.gone = true
	}
}

// exportRoute answers one zip of the chosen candidates (lifecycle.ExportCandidates: a folder each, an audit entry
// each). All or nothing against the hourly allowance: a zip missing some of the chosen would be mistaken for the
// whole, so a request that finds fewer left than it names is refused (429) and the manager chooses fewer. Headers:
// X-Bulk-Exported (candidates in the zip), X-Bulk-Not-Found (ids that are no candidate of the job).
func exportRoute(e *core.RequestEvent) error {
	req, err := readRequest(e, nil)
	if err != nil {
		return err
	}
	if len(req.found) == 0 {
		return platform.FieldError("candidates", errNotFound.Message, codeNotFound)
	}
	userID := req.manager.Id
	grant := platform.TakeBulkCandidates(e.App, userID, len(req.found))
	if grant.Taken < len(req.found) {
		platform.GiveBackBulkCandidates(e.App, userID, grant.Minute, grant.Taken)
		return capRefusal(e, platform.TakeBulkCandidates(e.App, userID, 0))
	}
	if err := platform.RequireBulkAction(e.App, userID); err != nil {
		platform.GiveBackBulkCandidates(e.App, userID, grant.Minute, grant.Taken)
		return err
	}
	chosen := make([]string, len(req.found))
	for i, match := range req.found {
		chosen[i] = match.ID
	}
	name := fmt.Sprintf("candidates-%s.zip", req.job.Id)
	exported, err := lifecycle.ExportCandidates(e, userID, req.job, chosen, name, func(exported int) map[string]string {
		return map[string]string{
			"X-Bulk-Exported":  fmt.Sprint(exported),
			"X-Bulk-Not-Found": fmt.Sprint(len(req.missing) + len(req.found) - exported),
		}
	})
	platform.GiveBackBulkCandidates(e.App, userID, grant.Minute, len(req.found)-exported)
	return err
}
