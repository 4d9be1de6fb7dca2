package metrics

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/pocketbase/pocketbase/apis"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/hook"
	"github.com/pocketbase/pocketbase/tools/router"
)

// The routes by which a candidate's recording reaches the server: a part of a take while it is recorded, and the
// answer itself (whole file, or the staged take joined).
var uploadRoutes = []string{
	"/api/screenroom/takes/{takeId}/parts/{offset}",
	"/api/screenroom/answers",
}

// otherRoute names the requests no route matched (PocketBase's catch-all 404): one series for all of them, whatever
// path a scanner tries.
const otherRoute = "other"

// registerRequestMetrics wraps every route, outside PocketBase's own middlewares, so a request refused by the rate
// limiter or the body limit is counted too, with its own status.
func registerRequestMetrics(app core.App) {
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		se.Router.Bind(&hook.Handler[*core.RequestEvent]{
			Id:       "screenroomMetrics",
			Priority: apis.DefaultWWWRedirectMiddlewarePriority - 1,
			Func:     observeRequest,
		})
		return se.Next()
	})
}

func observeRequest(e *core.RequestEvent) error {
	route := routeOf(e.Request)
	method := methodOf(e.Request.Method)
	if isUploadRoute(route) {
		gauge := uploadsInFlight.WithLabelValues(route)
		gauge.Inc()
		defer gauge.Dec()
	}
	started := time.Now()
	err := e.Next()
	httpDuration.WithLabelValues(route, method).Observe(time.Since(started).Seconds())
	httpRequests.WithLabelValues(route, method, strconv.Itoa(statusOf(e, err))).Inc()
	return err
}

// routeOf is the pattern the request matched, without its method ("/api/collections/{collection}/records/{id}"):
// bounded by the routes the server registers, never a path a client made up.
func routeOf(r *http.Request) string {
	pattern := r.Pattern
	if i := strings.IndexByte(pattern, ' '); i >= 0 {
		pattern = pattern[i+1:]
	}
	if pattern == "" || pattern == "/" {
		return otherRoute
	}
	return pattern
}

func isUploadRoute(route string) bool {
	for _, upload := range uploadRoutes {
		if route == upload {
			return true
		}
	}
	return false
}

// methodOf keeps the label to the methods HTTP defines: the catch-all route matches any method a client sends.
func methodOf(method string) string {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete, http.MethodOptions:
		return method
	}
	return "OTHER"
}

// statusOf is the status the client gets: the one written, else the one PocketBase's error handler will write for
// err once this middleware returns.
func statusOf(e *core.RequestEvent, err error) int {
	if status := e.Status(); status != 0 {
		return status
	}
	if err != nil {
		return router.ToApiError(err).Status
	}
	return http.StatusOK
}
