// Package takes: a take's bytes, from the candidate's device to storage: the staged parts of a video take while it
// is recorded (their rows, files and routes), their recovery after a crash, the move of a submitted take into
// storage, the hourly sweep of stale takes, the WebM length and the media probe, the media worker's job claims, and failed transcripts asked for again.
package takes

import "github.com/pocketbase/pocketbase/core"

// Register binds the package's routes and hooks to app.
func Register(app core.App) {
	registerStagedTakeMove(app)
	registerTakeRoutes(app)
	registerStaleTakesSweep(app)
	registerWorkerClaims(app)
	registerTranscriptRetry(app)
}
