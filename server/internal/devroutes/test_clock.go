package devroutes

import (
	"math"
	"net/http"
	"time"

	"screenroom/server/internal/platform"

	"github.com/pocketbase/pocketbase/core"
)

// POST /api/screenroom/test-clock {offsetMs}: moves the server's clock (platform.Now) for tests. Only for
// superusers; anyone else gets the 404 of an unknown path.
func registerTestClock(app core.App) {
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		se.Router.POST("/api/screenroom/test-clock", testClockRoute)
		return se.Next()
	})
}

func testClockRoute(e *core.RequestEvent) error {
	if !e.HasSuperuserAuth() {
		return e.NotFoundError("", nil)
	}
	info, err := e.RequestInfo()
	if err != nil {
		return e.BadRequestError("", err)
	}
	raw, given := info.Body["offsetMs"]
	offset, ok := jsNumber(raw, given)
	if !ok {
		return e.BadRequestError("offsetMs must be a number.", nil)
	}
	platform.SetTestClockOffset(e.App, time.Duration(offset*float64(time.Millisecond)))
	return e.JSON(http.StatusOK, map[string]any{"offsetMs": offset, "now": platform.NowText(e.App)})
}

// jsNumber reads a JSON value as the JS route's Number(...) did (platform.JSNumber); ok false when the value was not
// given or is not a finite number.
func jsNumber(raw any, given bool) (float64, bool) {
	if !given {
		return 0, false
	}
	n := platform.JSNumber(raw)
	return n, !math.IsNaN(n) && !math.IsInf(n, 0)
}
