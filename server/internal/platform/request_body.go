package platform

import (
	"github.com/pocketbase/pocketbase/apis"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/hook"
	"github.com/pocketbase/pocketbase/tools/router"
)

// registerRequestBodyRestore gives Go's HTTP server back the request body it made, once the handlers are done, so
// that a connection whose request body was left unread is closed instead of kept for the client's next request.
//
// PocketBase's router and its body limit (apis.BodyLimit, on every route) replace Request.Body with readers of their
// own, and Go's server looks at Request.Body's type to learn whether the body was left unread: before writing an
// error that the handlers returned (then it answers "Connection: close") and after the handlers (net/http's
// closedRequestBodyEarly). With the replacements it never learned, kept the connection, and read the unread rest of
// the body as the client's next request, which got "400 Bad Request" in plain text: a request refused before its body
// was read (the connection check's 413 for a body over 1 MB, a refused upload) broke the request after it on the same
// connection (found by tests/request-log.test.ts running after tests/connection-check-route.test.ts). The handlers
// still read the body through PocketBase's readers; only the error written after them, and Go, see Go's own.
func registerRequestBodyRestore(app core.App) {
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		se.Router.Bind(&hook.Handler[*core.RequestEvent]{
			Id:       "screenroomRequestBodyRestore",
			Priority: apis.DefaultWWWRedirectMiddlewarePriority - 1, // before every other, so its deferred step runs last
			Func: func(e *core.RequestEvent) error {
				// PocketBase's router wraps the body first, to read it again (router.RereadableReadCloser); what it
				// wraps is Go's, until a second read swaps in the copy
				body := e.Request.Body
				if rereadable, ok := body.(*router.RereadableReadCloser); ok {
					body = rereadable.ReadCloser
				}
				defer func() { e.Request.Body = body }()
				return e.Next()
			},
		})
		return se.Next()
	})
}
