// Package jobs: Jobs: the company's jobs list and its counts, the rule on a job's questions, and closing and
// reopening a job (what a closed job refuses).
package jobs

import "github.com/pocketbase/pocketbase/core"

// Register binds the package's routes and hooks to app.
func Register(app core.App) {
	registerJobsList(app)
	registerJobCounts(app)
	registerJobQuestionsRule(app)
	registerJobLifecycle(app)
}
