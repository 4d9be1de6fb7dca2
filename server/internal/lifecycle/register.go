// Package lifecycle: A candidate's data over its life: export, and the audit of every removal.
package lifecycle

import "github.com/pocketbase/pocketbase/core"

// Register binds the package's routes and hooks to app.
func Register(app core.App) {
	registerExport(app)
	registerCandidateRemovalAudit(app)
}
