package platform

import (
	"net/http"

	"github.com/pocketbase/pocketbase/apis"
	"github.com/pocketbase/pocketbase/core"
)

// registerRequestLog keeps successful reads (GET and HEAD answered without an error) out of PocketBase's request
// log, with PocketBase's own apis.SkipSuccessActivityLog; every write, and every request that failed, read or not,
// is logged as before, and so is everything the app logs itself (the mail queue, retention, reminders).
//
// Why (issue 20 point 3): PocketBase writes the request log into auxiliary.db in batches of 200, one transaction
// each, every row through a model save. Under ten readers on the bench's one core a batch came every 0.2 s and held
// the core for some 25 ms, so the reads queued behind it: at ten times the bench data nine of the screens' reads
// were over the 20 ms p95 budget (20.3-26.6 ms); without the reads' rows every one is under it (10-19.5 ms).
// The rows held no more than the path, the status and the caller's IP: a candidate's key is in the path of every
// read of the interview, so not keeping them is also less personal data kept (decisions.md, erasure). A production
// server answers behind nginx (deploy/nginx), whose access log still has every request.
func registerRequestLog(app core.App) {
	skip := apis.SkipSuccessActivityLog()
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		se.Router.BindFunc(func(e *core.RequestEvent) error {
			if e.Request.Method == http.MethodGet || e.Request.Method == http.MethodHead {
				return skip.Func(e)
			}
			return e.Next()
		})
		return se.Next()
	})
}
