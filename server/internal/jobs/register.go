// Package jobs: Jobs: the company's jobs list and its counts.
package jobs

import "github.com/pocketbase/pocketbase/core"

// Register binds the package's routes and hooks to app.
func Register(app core.App) {
	registerJobsList(app)
	registerJobCounts(app)
}
