// Package webhooks: Signed webhooks: the events recorded inside the write that caused them, the endpoints' secret,
// 'send again', and the delivery with retries to public addresses only.
package webhooks

import "github.com/pocketbase/pocketbase/core"

// Register binds the package's routes and hooks to app.
func Register(app core.App) {
	registerWebhooks(app)
	registerEndpointSecret(app)
	registerEventHooks(app)
	registerSendAgain(app)
}
