// Package interview: The candidate's interview: the read by key.
package interview

import "github.com/pocketbase/pocketbase/core"

// Register binds the package's routes and hooks to app.
func Register(app core.App) {
	registerInterviewRead(app)
}
