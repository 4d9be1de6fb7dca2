package accounts

// The per-account sign-in throttle (OWASP ASVS 2.2.1), beside PocketBase's per-client limit (RATE_LIMIT_AUTH in
// platform/throttle.go): guesses spread over many client addresses against one account are slowed, then refused.
//
//   - Failed password sign-ins to `users` are counted per account: the identity as sent, trimmed and lower-cased
//     (e-mails are stored so), whether or not such an account exists, so neither the answers nor their timing tell
//     which accounts exist.
//   - RATE_LIMIT_ACCOUNT_SIGNIN ("N/SECONDS", default 20/900) is the limit: once N failures fall within the window,
//     every sign-in to that account is refused with the per-client limit's own 429 ("Too Many Requests."), right
//     password or not, until the oldest failure leaves the window. Past half of N, each attempt first waits a
//     little on the server (half a second more per failure, at most three seconds), right password or not.
//   - A successful sign-in does not clear the count: otherwise the account's owner signing in (or an app doing it
//     for them) would hand an attacker a fresh set of guesses each time. Only a completed password reset clears it
//     (the reset proves the mailbox and replaces the password that was being guessed), so the locked-out owner
//     requests a reset (never throttled here), confirms it and signs in.
//   - An attempt takes its place in the count before the password is checked and gives it back when it did not
//     fail, so guesses sent together cannot all pass the check while the count is one short of the limit.
//
// The counts are kept in the server's memory, not in a table: one PocketBase serves the product (it scales up, not
// out); a guess must not become a database write (a flood of guesses would be a flood of writes on the sign-in's
// path); and, as with the other budgets (platform/throttle.go), a restart starting every count afresh is no gift to
// an attacker, who cannot cause one. Keys are hashes of the identity (a fixed 16 bytes each), each list holds at most N
// times, and accounts whose failures all left the window are swept, so memory stays bounded by the guess rate the
// per-client limit allows.

import (
	"screenroom/server/internal/platform"

	"context"
	"crypto/sha256"
	"errors"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/pocketbase/pocketbase/apis"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/hook"
	"github.com/pocketbase/pocketbase/tools/router"
)

const (
	signinThrottleSetting = "RATE_LIMIT_ACCOUNT_SIGNIN"
	signinDelayStep       = 500 * time.Millisecond
	signinDelayMax        = 3 * time.Second
)

type accountKey [16]byte

type signinThrottle struct {
	mu        sync.Mutex
	max       int           // failures in the window that refuse the account's sign-in
	window    time.Duration // how long a failure counts
	failures  map[accountKey][]time.Time
	lastSweep time.Time
	now       func() time.Time
}

func newSigninThrottle(max int, window time.Duration) *signinThrottle {
	return &signinThrottle{max: max, window: window, failures: map[accountKey][]time.Time{}, now: time.Now}
}

// signinAccountKey is the account an identity names in an auth collection: trimmed and lower-cased, as e-mails are
// stored, so "Ada@Example.com " and "ada@example.com" are one account.
func signinAccountKey(collectionId, identity string) accountKey {
	sum := sha256.Sum256([]byte(collectionId + "\x00" + strings.ToLower(strings.TrimSpace(identity))))
	var key accountKey
	copy(key[:], sum[:])
	return key
}

// begin takes a place in the account's count for an attempt about to be checked. It returns the place's time (for
// end), the failures counted before it, and false when the account is at its limit (nothing taken then).
func (t *signinThrottle) begin(key accountKey) (time.Time, int, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.now()
	t.sweepLocked(now)
	recent := t.recentLocked(key, now)
	if len(recent) >= t.max {
		return now, len(recent), false
	}
	t.failures[key] = append(recent, now)
	return now, len(recent), true
}

// end settles an attempt begun at `at`: a failure keeps its place, anything else gives it back.
func (t *signinThrottle) end(key accountKey, at time.Time, failed bool) {
	if failed {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	list := t.failures[key]
	for i := len(list) - 1; i >= 0; i-- {
		if list[i].Equal(at) {
			list = append(list[:i:i], list[i+1:]...)
			break
		}
	}
	if len(list) == 0 {
		delete(t.failures, key)
	} else {
		t.failures[key] = list
	}
}

// clear forgets the account's failures (its password was reset).
func (t *signinThrottle) clear(key accountKey) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.failures, key)
}

// delay is the wait before checking an attempt that finds `failures` counted: none up to half the limit, then half
// a second more for each failure past it, at most signinDelayMax.
func (t *signinThrottle) delay(failures int) time.Duration {
	soft := t.max / 2
	if failures < soft || failures == 0 {
		return 0
	}
	d := time.Duration(failures-soft+1) * signinDelayStep
	if d > signinDelayMax {
		d = signinDelayMax
	}
	return d
}

func (t *signinThrottle) recentLocked(key accountKey, now time.Time) []time.Time {
	list := t.failures[key]
	keep := 0
	for keep < len(list) && now.Sub(list[keep]) >= t.window {
		keep++
	}
	if keep == len(list) {
		delete(t.failures, key)
		return nil
	}
	return list[keep:]
}

// sweepLocked drops the accounts whose failures all left the window, once a window.
func (t *signinThrottle) sweepLocked(now time.Time) {
	if now.Sub(t.lastSweep) < t.window {
		return
	}
	t.lastSweep = now
	for key, list := range t.failures {
		if len(list) == 0 || now.Sub(list[len(list)-1]) >= t.window {
			delete(t.failures, key)
		}
	}
}

// signinThrottleFromEnv is the throttle RATE_LIMIT_ACCOUNT_SIGNIN sets (platform.Limit: its default when unset, and
// the default, logged, when malformed).
func signinThrottleFromEnv(app core.App) *signinThrottle {
	max, window := platform.Limit(app, signinThrottleSetting)
	return newSigninThrottle(max, window)
}

// isFailedSignin: the answer of a wrong identity or password (PocketBase's 400 "Failed to authenticate.", also the
// hooks' for an unverified account with a wrong password). A refusal for another reason (an unverified account with
// the right password: 403) or a server error is not a guess that failed.
func isFailedSignin(err error) bool {
	var apiErr *router.ApiError
	return errors.As(err, &apiErr) && apiErr.Status == http.StatusBadRequest
}

func sleepContext(ctx context.Context, d time.Duration) error {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func registerSigninThrottle(app core.App) {
	var throttle *signinThrottle
	app.OnServe().BindFunc(func(e *core.ServeEvent) error {
		throttle = signinThrottleFromEnv(e.App)
		return e.Next()
	})

	// first among the sign-in's hooks (the unverified-account check in users.go binds at priority 0), so it counts
	// what they answer too
	app.OnRecordAuthWithPasswordRequest("users").Bind(&hook.Handler[*core.RecordAuthWithPasswordRequestEvent]{
		Id:       "screenroomSigninThrottle",
		Priority: -100,
		Func: func(e *core.RecordAuthWithPasswordRequestEvent) error {
			if throttle == nil { // not serving (a command run through the app)
				return e.Next()
			}
			key := signinAccountKey(e.Collection.Id, e.Identity)
			at, failures, ok := throttle.begin(key)
			if !ok {
				// the per-client limit's own answer, so the two limits cannot be told apart
				return apis.NewTooManyRequestsError("", nil)
			}
			if d := throttle.delay(failures); d > 0 {
				if err := sleepContext(e.Request.Context(), d); err != nil {
					throttle.end(key, at, false)
					return err
				}
			}
			err := e.Next()
			throttle.end(key, at, isFailedSignin(err))
			return err
		},
	})

	app.OnRecordConfirmPasswordResetRequest("users").BindFunc(func(e *core.RecordConfirmPasswordResetRequestEvent) error {
		if err := e.Next(); err != nil {
			return err
		}
		if throttle != nil && e.Record != nil {
			throttle.clear(signinAccountKey(e.Collection.Id, e.Record.Email()))
		}
		return nil
	})
}
