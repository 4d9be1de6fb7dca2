// Package mail: Outgoing mail: the queue that sends at a steady pace with retries.
package mail

import "github.com/pocketbase/pocketbase/core"

// Register binds the package's routes and hooks to app.
func Register(app core.App) {
	registerMailQueue(app)
}
