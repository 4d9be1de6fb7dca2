// Package search: Search across transcripts.
package search

import "github.com/pocketbase/pocketbase/core"

// Register binds the package's routes and hooks to app.
func Register(app core.App) {
	registerSearch(app)
}
