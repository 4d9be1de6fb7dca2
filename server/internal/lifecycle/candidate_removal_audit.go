package lifecycle

import (
	"screenroom/server/internal/platform"

	"context"
	"fmt"
	"sync"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/hook"
)

// Every removal of a candidate writes one audit entry (decisions.md "Data lifetime"): the records API's delete (the
// review's 'Delete candidate and answers', `?deleteAnswers=true`), a batch delete, a job deleted with its candidates,
// the erase route, the retention cron and the candidate's own withdrawal (eraseCandidate, erasure.go). The entry
// holds the action, who acted (actorKind: a manager, the candidate, retention, or the system for a superuser or a
// removal no request asked for), the manager's id only when a manager did it, the company and the candidate's record
// id; no e-mail, no name.
//
// It is written by the candidate's own model delete, so no path can forget it: OnRecordDeleteExecute runs for every
// delete of a candidate row, cascades included, and its handlers after PocketBase's own (priority 99) run inside
// the transaction PocketBase opens there for the row and its cascade (core/record_model.go onRecordDeleteExecute).
// The entry commits with the removal or not at all: a cascade that fails rolls the entry back, and an entry that
// cannot be written fails the delete.
//
// Who did it, and how, reaches the model hook from the request (a records or batch delete: its record, by pointer)
// or from the context of the delete (a job's candidates; eraseCandidate for the erase route and retention). A job's
// candidates are deleted before the job's own row, each audited with its company, rather than by PocketBase's
// cascade after the job row is gone. A company's delete writes no entry: its audit log goes with it (the log's
// company relation cascades), and the company row is already gone when its jobs' candidates are.

// candidateRemoval is how a candidate went (the audit_log action), the kind of actor (audit_log.actorKind) and the
// manager who removed them ("" unless kind is actorManager).
type candidateRemoval struct{ action, kind, actor string }

// The kinds of actor of an audit entry (audit_log.actorKind).
const (
	actorManager   = "manager"
	actorCandidate = "candidate"
	actorRetention = "retention"
	actorSystem    = "system"
)

type candidateRemovalKey struct{}

func withCandidateRemoval(ctx context.Context, removal candidateRemoval) context.Context {
	if ctx == nil {
		ctx = context.Background()
	}
	return context.WithValue(ctx, candidateRemovalKey{}, removal)
}

// requestRemovals: the record a records or batch delete request is deleting → its removal, while the request runs.
var requestRemovals sync.Map

// removalOf is how e's record goes: from its context, else from its request, else `fallback` by the system.
func removalOf(e *core.RecordEvent, fallback string) candidateRemoval {
	if e.Context != nil {
		if removal, ok := e.Context.Value(candidateRemovalKey{}).(candidateRemoval); ok {
			return removal
		}
	}
	if removal, ok := requestRemovals.Load(e.Record); ok {
		return removal.(candidateRemoval)
	}
	return candidateRemoval{action: fallback, kind: actorSystem}
}

func registerCandidateRemovalAudit(app core.App) {
	app.OnRecordDeleteRequest("candidates", "jobs").BindFunc(func(e *core.RecordRequestEvent) error {
		removal := candidateRemoval{action: "delete", kind: actorSystem}
		if e.Collection.Name == "jobs" {
			removal.action = "job_delete"
		}
		// a superuser is no manager: the actor relation names users only, and the entry says the system did it
		if e.Auth != nil && e.Auth.Collection().Name == "users" {
			removal.kind, removal.actor = actorManager, e.Auth.Id
		}
		requestRemovals.Store(e.Record, removal)
		defer requestRemovals.Delete(e.Record)
		return e.Next()
	})

	// a job's candidates first, while the job still names its company
	app.OnRecordDeleteExecute("jobs").Bind(&hook.Handler[*core.RecordEvent]{
		Priority: 100,
		Func: func(e *core.RecordEvent) error {
			removal := removalOf(e, "job_delete")
			candidates, err := e.App.FindAllRecords("candidates", dbx.HashExp{"job": e.Record.Id})
			if err != nil {
				return err
			}
			for _, candidate := range candidates {
				if err := e.App.DeleteWithContext(withCandidateRemoval(e.Context, removal), candidate); err != nil {
					return err
				}
			}
			return e.Next()
		},
	})

	app.OnRecordDeleteExecute("candidates").Bind(&hook.Handler[*core.RecordEvent]{
		Priority: 100,
		Func: func(e *core.RecordEvent) error {
			if err := e.Next(); err != nil {
				return err
			}
			return auditCandidateRemoval(e.App, e.Record, removalOf(e, "delete"))
		},
	})
}

// auditCandidateRemoval writes the entry of candidate's removal with `app` (the removal's transaction). Nothing
// when the candidate's company is gone in it: a company's delete takes its audit log too.
func auditCandidateRemoval(app core.App, candidate *core.Record, removal candidateRemoval) error {
	_, company, err := platform.JobAndCompanyOf(app, candidate)
	if err != nil {
		return nil
	}
	if err := writeAudit(app, company.Id, removal.kind, removal.actor, removal.action, candidate.Id); err != nil {
		return fmt.Errorf("the audit entry of candidate %s could not be written: %w", candidate.Id, err)
	}
	return nil
}
