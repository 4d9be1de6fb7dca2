// Package webhooks: Signed webhooks: delivery with retries to public addresses only.
package webhooks

import "github.com/pocketbase/pocketbase/core"

// Register binds the package's routes and hooks to app.
func Register(app core.App) {
	registerWebhooks(app)
}
