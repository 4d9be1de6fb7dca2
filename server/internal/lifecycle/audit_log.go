package lifecycle

import (
	"screenroom/server/internal/platform"

	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/router"
)

// The audit log is append-only for everyone (decisions.md "Access model"). Its rules (migration
// 1733200100_audit_log.js) already refuse every write through the API to all but superusers; these model hooks run
// for every save and delete, whoever asks (a superuser's records or batch request, the admin UI, the server's own
// hooks), so nobody changes or removes an entry. Two writes PocketBase itself makes are allowed, both only once the
// record they follow is gone:
//   - deleting a company cascades to its log (the company row is deleted first, in the same transaction): an entry
//     whose company no longer exists may be deleted;
//   - deleting a manager's account empties `actor` on their entries (a relation that does not cascade is cleared):
//     an update that changes nothing but `actor`, to empty, while that account no longer exists, is allowed.

const auditRefusal = "The audit log cannot be changed."

func registerAuditLog(app core.App) {
	app.OnRecordUpdate("audit_log").BindFunc(func(e *core.RecordEvent) error {
		if !auditChangeAllowed(e.App, e.Record) {
			return router.NewBadRequestError(auditRefusal, nil)
		}
		return e.Next()
	})

	app.OnRecordDelete("audit_log").BindFunc(func(e *core.RecordEvent) error {
		if platform.FindByIdOrNil(e.App, "companies", e.Record.GetString("company")) != nil {
			return router.NewBadRequestError(auditRefusal, nil)
		}
		return e.Next()
	})
}

// auditChangeAllowed: the audit log's only allowed update, PocketBase emptying `actor` because that account was
// deleted.
func auditChangeAllowed(app core.App, record *core.Record) bool {
	original := record.Original()
	for _, field := range []string{"company", "action", "actorKind", "candidateId", "created"} {
		if record.GetString(field) != original.GetString(field) {
			return false
		}
	}
	if record.GetString("actor") == original.GetString("actor") {
		return false
	}
	return record.GetString("actor") == "" && platform.FindByIdOrNil(app, "users", original.GetString("actor")) == nil
}
