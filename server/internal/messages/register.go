// Package messages: decision messages. A company's templates for advancing and rejecting candidates, per language,
// with the product's default texts where it wrote none; the preview; sending one to a candidate (never automatic),
// through the mail queue, recorded for the candidate's review and announced to webhooks.
package messages

import "github.com/pocketbase/pocketbase/core"

// Register binds the package's routes and hooks to app.
func Register(app core.App) {
	registerTemplateRules(app)
	registerTemplateRoutes(app)
	registerSendRoutes(app)
}
