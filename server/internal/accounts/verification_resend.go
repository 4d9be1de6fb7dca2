package accounts

// Issue 16's 'Resend the e-mail': PocketBase silently drops a verification request for two minutes after each one
// (a lock in its store, checked before any hook), so a resend right after sign-up would answer 204 and send nothing.
// The lock is lifted before the request is handled: what throttles verification e-mails is this server's own limits,
// per client (RATE_LIMIT_ACCOUNT_MAIL, PocketBase's rate limiter) and per address (the "account" budget of
// users.go), and the client's pause after each send.
//
// A Go middleware (issue 20 point 3): as a JS routerUse it took a runtime from the hooks' pool on every request the
// server answered, to look at the path of each.
//
// When the per-client limit refuses a request (429), the answer says when the caller may ask again: a Retry-After
// header and `retryAfter` (seconds) in the JSON body, which the SDK hands the SPA (it sees no headers). A sign-up whose
// verification e-mail met the limit then shows 'Check your inbox' with that wait (security round three: "a limit must
// never break a flow that succeeded"). It is about the caller's own client only: the per-address budget answers 204
// as before, so nothing tells whether an address has an account.

import (
	"errors"
	"net/http"
	"net/netip"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/pocketbase/pocketbase/apis"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/hook"
	"github.com/pocketbase/pocketbase/tools/router"
	"github.com/spf13/cast"
)

var requestVerificationPath = regexp.MustCompile(`^/api/collections/(users|_pb_users_auth_)/request-verification/?$`)

func registerVerificationResend(app core.App) {
	windows := &rateWindows{ends: map[string]int64{}}
	// PocketBase starts every limiter afresh when the settings are reloaded: so does the copy of their windows
	app.OnSettingsReload().BindFunc(func(e *core.SettingsReloadEvent) error {
		err := e.Next()
		windows.reset()
		return err
	})
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		se.Router.BindFunc(func(e *core.RequestEvent) error {
			if isVerificationRequest(e) {
				liftVerificationLock(e)
			}
			return e.Next()
		})
		// Right before PocketBase's rate limiter (route and router middlewares run in one chain by priority), after
		// the auth token is loaded: it sees every request the limiter counts and the limiter's refusal. It reads no
		// body (the body limit comes after the limiter).
		se.Router.Bind(&hook.Handler[*core.RequestEvent]{
			Func: func(e *core.RequestEvent) error {
				if !isVerificationRequest(e) {
					return e.Next()
				}
				windowEnd := windows.track(e, "users", "requestVerification")
				err := e.Next()
				var apiErr *router.ApiError
				if windowEnd == 0 || !errors.As(err, &apiErr) || apiErr.Status != http.StatusTooManyRequests {
					return err
				}
				wait := max(windowEnd-time.Now().Unix(), 1)
				e.Response.Header().Set("Retry-After", strconv.FormatInt(wait, 10))
				return e.JSON(http.StatusTooManyRequests, map[string]any{
					"status":     http.StatusTooManyRequests,
					"message":    apiErr.Message,
					"data":       map[string]any{},
					"retryAfter": wait,
				})
			},
			Priority: apis.DefaultRateLimitMiddlewarePriority - 1,
		})
		return se.Next()
	})
}

func isVerificationRequest(e *core.RequestEvent) bool {
	return e.Request.Method == http.MethodPost && requestVerificationPath.MatchString(e.Request.URL.Path)
}

// rateWindows follows PocketBase's per-client rate limiter (apis/middlewares_rate_limit.go, whose state is not
// exported) to know when a client's window ends: the limiter counts in fixed windows per rule and client address,
// each starting at the first request after the previous one ended. Every request that reaches the limiter passes
// here first, so both see the same requests.
type rateWindows struct {
	mu   sync.Mutex
	ends map[string]int64 // rule and client → the Unix second its current window ends
}

// track counts the request in its client's window of the rule PocketBase applies to `collection`'s `action` and
// returns when that window ends (Unix seconds); 0 when no limit applies to the request.
func (w *rateWindows) track(e *core.RequestEvent, collection, action string) int64 {
	limits := e.App.Settings().RateLimits
	client := e.RealIP()
	if !limits.Enabled || e.HasSuperuserAuth() || client == "" || addressIn(limits.ExcludedIPs, client) {
		return 0
	}
	labels := []string{collection + ":" + action, "*:" + action, e.Request.Method + " " + e.Request.URL.Path, e.Request.URL.Path}
	audience := []string{core.RateLimitRuleAudienceAll, core.RateLimitRuleAudienceGuest}
	if e.Auth != nil {
		audience = []string{core.RateLimitRuleAudienceAll, core.RateLimitRuleAudienceAuth}
	}
	rule, ok := limits.FindRateLimitRule(labels, audience...)
	if !ok || rule.Duration <= 0 {
		return 0
	}
	key := rule.Label + rule.Audience + "\x00" + client
	now := time.Now().Unix()
	w.mu.Lock()
	defer w.mu.Unlock()
	end, known := w.ends[key]
	if !known || now >= end {
		end = now + rule.Duration
		if len(w.ends) >= 10_000 {
			for other, otherEnd := range w.ends {
				if now >= otherEnd {
					delete(w.ends, other)
				}
			}
		}
		w.ends[key] = end
	}
	return end
}

func (w *rateWindows) reset() {
	w.mu.Lock()
	w.ends = map[string]int64{}
	w.mu.Unlock()
}

// addressIn: whether ip is one of the addresses or subnets of list (PocketBase's excluded IPs).
func addressIn(list []string, ip string) bool {
	addr, err := netip.ParseAddr(ip)
	if err != nil {
		return false
	}
	for _, item := range list {
		if prefix, err := netip.ParsePrefix(item); err == nil {
			if prefix.Contains(addr) {
				return true
			}
		} else if other, err := netip.ParseAddr(item); err == nil && other == addr {
			return true
		}
	}
	return false
}

// liftVerificationLock removes PocketBase's two-minute lock for the address in the request's body, if it is a user's;
// an unknown address is left alone (PocketBase answers as for a known one, and sends nothing).
func liftVerificationLock(e *core.RequestEvent) {
	info, err := e.RequestInfo()
	if err != nil {
		return
	}
	email := strings.ToLower(strings.TrimSpace(cast.ToString(info.Body["email"])))
	if email == "" {
		return
	}
	record, err := e.App.FindAuthRecordByEmail("users", email)
	if err != nil {
		return
	}
	e.App.Store().Remove("@limitVerificationEmail_" + record.Collection().Id + record.Id)
}
