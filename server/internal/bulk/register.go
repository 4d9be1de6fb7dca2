// Package bulk: actions on many candidates of a job's pipeline at once (its selected rows, or all that match its
// filter): decide, resend the invitation, send a decision message, export (one zip), delete. Each candidate is acted
// on by the same function a single candidate's route calls, so a bulk action has the same rules as one at a time;
// what a bulk request adds is said in routes.go.
package bulk

import "github.com/pocketbase/pocketbase/core"

// Register binds the package's routes to app.
func Register(app core.App) {
	registerRoutes(app)
}
