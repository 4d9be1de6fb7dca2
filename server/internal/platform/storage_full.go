package platform

import (
	"errors"
	"log"
	"net/http"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/hook"
	"github.com/pocketbase/pocketbase/tools/router"
)

// retryAfterSeconds is the Retry-After of a 507: long enough for an operator to free space, short enough that a
// candidate's answer arrives soon after.
const retryAfterSeconds = "30"

const storageFullLogEvery = 10 * time.Minute

const storageFullMessage = "The server has no space left to store this. Try again later."

// registerStorageFull answers storage exhaustion as the temporary condition it is: 507 Insufficient Storage with
// Retry-After, never PocketBase's 400 (which a client takes as final, so an answer stopped being retried). SQLite's
// "database or disk is full" rolls its transaction back and a failed upload removes what it wrote, so nothing is
// left half-stored; the client sends the same request again later. The condition is logged once when it starts, and
// then at most every storageFullLogEvery with the count of refused writes, not per request.
func registerStorageFull(app core.App) {
	var mu sync.Mutex
	var lastLog time.Time
	refusedSince := 0
	app.OnServe().Bind(&hook.Handler[*core.ServeEvent]{
		Func: func(se *core.ServeEvent) error {
			se.Router.Bind(&hook.Handler[*core.RequestEvent]{
				Id: "screenroomStorageFull",
				Func: func(e *core.RequestEvent) error {
					err := e.Next()
					if err == nil || !isStorageFull(err) {
						return err
					}
					mu.Lock()
					refusedSince++
					if lastLog.IsZero() || time.Since(lastLog) >= storageFullLogEvery {
						cause := rootCause(err)
						if lastLog.IsZero() {
							log.Printf("STORAGE FULL: the data dir %s has no space left (%v). Writes are answered 507 until space is freed; reads keep working.", e.App.DataDir(), cause)
						} else {
							log.Printf("STORAGE FULL: %d writes refused with 507 in the last %s (%v).", refusedSince, storageFullLogEvery, cause)
						}
						e.App.Logger().Error("storage full: writes are answered 507 until space is freed", "dataDir", e.App.DataDir(), "error", cause.Error())
						lastLog = time.Now()
						refusedSince = 0
					}
					mu.Unlock()
					e.Response.Header().Set("Retry-After", retryAfterSeconds)
					// readable by the SPA on another origin too (the Vite dev server)
					e.Response.Header().Add("Access-Control-Expose-Headers", "Retry-After")
					return router.NewApiError(http.StatusInsufficientStorage, storageFullMessage, nil)
				},
				// inside PocketBase's own middlewares (panic recovery, activity log), around every route
				Priority: -1,
			})
			return se.Next()
		},
	})
}

var storageFullTexts = []string{"database or disk is full", "no space left on device", "disk quota exceeded", "sqlite_full"}

// isStorageFull tells whether err (or an error it wraps, joins, or carries as an ApiError's raw data, as
// PocketBase's "Failed to create record." does) is storage exhaustion.
func isStorageFull(err error) bool {
	found := false
	walkErrors(err, func(e error) {
		if errors.Is(e, syscall.ENOSPC) || errors.Is(e, syscall.EDQUOT) {
			found = true
			return
		}
		text := strings.ToLower(e.Error())
		for _, t := range storageFullTexts {
			if strings.Contains(text, t) {
				found = true
			}
		}
	})
	return found
}

// rootCause is the innermost error err names (for the log line).
func rootCause(err error) error {
	last := err
	walkErrors(err, func(e error) { last = e })
	return last
}

func walkErrors(err error, visit func(error)) {
	for depth := 0; err != nil && depth < 32; depth++ {
		visit(err)
		var apiErr *router.ApiError
		if errors.As(err, &apiErr) {
			if raw, ok := apiErr.RawData().(error); ok && raw != err {
				walkErrors(raw, visit)
			}
		}
		if joined, ok := err.(interface{ Unwrap() []error }); ok {
			for _, e := range joined.Unwrap() {
				walkErrors(e, visit)
			}
			return
		}
		err = errors.Unwrap(err)
	}
}
