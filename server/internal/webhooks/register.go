// Package webhooks: Signed webhooks: the events recorded inside the write that caused them, the endpoints' secret
// and its rotation, a test event, 'send again', the delivery with retries to public addresses only, and disabling an
// endpoint that keeps failing.
package webhooks

import "github.com/pocketbase/pocketbase/core"

// Register binds the package's routes and hooks to app.
func Register(app core.App) {
	sender := newWebhookSender(app)
	registerWebhooks(app, sender)
	registerEndpointRoutes(app, sender)
	registerEndpointSecret(app)
	registerEventHooks(app)
	registerSendAgain(app)
}
