// Package lifecycle: a candidate's data over its life: export, erasure, retention, and the audit log (append-only,
// with an entry for every removal of a candidate).
package lifecycle

import "github.com/pocketbase/pocketbase/core"

// Register binds the package's routes, hooks and cron to app.
func Register(app core.App) {
	registerExport(app)
	registerCandidateRemovalAudit(app)
	registerAuditLog(app)
	registerErasure(app)
	registerRetention(app)
}
