// Package takes: A take's bytes: staged parts, their move into storage at submit, the WebM length and the media probe.
package takes

import "github.com/pocketbase/pocketbase/core"

// Register binds the package's routes and hooks to app.
func Register(app core.App) {
	registerStagedTakeMove(app)
}
