// Package pipeline: A job's pipeline: its pages and counts, and what the server keeps of each candidate (its
// progress from its answers, its rating from the managers' ratings, the decision, the fields no client writes).
package pipeline

import "github.com/pocketbase/pocketbase/core"

// Register binds the package's routes and hooks to app.
func Register(app core.App) {
	registerPipelinePage(app)
	registerPipelineCounts(app)
	registerRecomputeHooks(app)
	registerServerFields(app)
	registerDecision(app)
}
