// Package pipeline: A job's pipeline: its pages and counts.
package pipeline

import "github.com/pocketbase/pocketbase/core"

// Register binds the package's routes and hooks to app.
func Register(app core.App) {
	registerPipelinePage(app)
	registerPipelineCounts(app)
}
