// Package answers: a candidate's answers. The answers route stores an answer with its kind record (a whole file, a
// staged take or a text) under the rules every answer is stored by (one kind record of its question's kind, once).
// An answer's history stays true: each answer keeps the question as its candidate saw it, and a delete of a job,
// question, candidate or answer refuses, or says before it runs, what it would take with it.
package answers

import "github.com/pocketbase/pocketbase/core"

// Register binds the package's routes and hooks to app.
func Register(app core.App) {
	registerHistory(app)
	registerDeletions(app)
	registerStagedTakeRemoval(app)
	registerAnswerRules(app)
	registerAnswerRoute(app)
}
