// Package platform: Cross-cutting rules every domain relies on: the settings from the environment, the SPA's files, durable writes, a full disk answered 507, the query guard (the filter oracle), single-line fields, the request log and unread request bodies, and who manages a company or job.
package platform

import "github.com/pocketbase/pocketbase/core"

// Register binds the package's routes and hooks to app.
func Register(app core.App) {
	registerSettings(app)
	registerDurableFiles(app)
	registerStorageFull(app)
	registerQueryGuard(app)
	registerSingleLine(app)
	registerRequestLog(app)
	registerRequestBodyRestore(app)
}
