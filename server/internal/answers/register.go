// Package answers: An answer's history stays true: each answer keeps the question as its candidate saw it, and a
// delete of a job, question, candidate or answer refuses, or says before it runs, what it would take with it.
package answers

import "github.com/pocketbase/pocketbase/core"

// Register binds the package's routes and hooks to app.
func Register(app core.App) {
	registerHistory(app)
	registerDeletions(app)
	registerStagedTakeRemoval(app)
}
