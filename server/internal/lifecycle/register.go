// Package lifecycle: a candidate's data over its life: export, erasure, retention, and the audit log (append-only,
// with an entry for every removal of a candidate; read filtered, a page at a time or as a CSV file).
package lifecycle

import "github.com/pocketbase/pocketbase/core"

// Register binds the package's routes, hooks and cron to app.
func Register(app core.App) {
	registerExport(app)
	registerCandidateRemovalAudit(app)
	registerAuditLog(app)
	registerAuditLogRoutes(app)
	registerErasure(app)
	registerRetention(app)
}
