// Package interview: The candidate's interview: the read by key, consent, a question's first opening, the device's
// connection check, the candidate's language and own withdrawal, and the rules every route a candidate sends through
// obeys (times, takes, deadlines, refusals, counted takes).
package interview

import "github.com/pocketbase/pocketbase/core"

// Register binds the package's routes and hooks to app.
func Register(app core.App) {
	registerInterviewRoutes(app)
	registerKeptAnswers(app)
}
