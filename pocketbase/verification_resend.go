package main

// Issue 16's 'Resend the e-mail': PocketBase silently drops a verification request for two minutes after each one
// (a lock in its store, checked before any hook), so a resend right after sign-up would answer 204 and send nothing.
// The lock is lifted before the request is handled: what throttles verification e-mails is this server's own limits,
// per client (RATE_LIMIT_ACCOUNT_MAIL, PocketBase's rate limiter) and per address (the "account" budget of
// pb_hooks/users.pb.js onRecordRequestVerificationRequest), and the client's pause after each send.
//
// A Go middleware (issue 20 point 3): as a JS routerUse it took a runtime from the hooks' pool on every request the
// server answered, to look at the path of each.

import (
	"net/http"
	"regexp"
	"strings"

	"github.com/pocketbase/pocketbase/core"
	"github.com/spf13/cast"
)

var requestVerificationPath = regexp.MustCompile(`^/api/collections/(users|_pb_users_auth_)/request-verification/?$`)

func registerVerificationResend(app core.App) {
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		se.Router.BindFunc(func(e *core.RequestEvent) error {
			if e.Request.Method == http.MethodPost && requestVerificationPath.MatchString(e.Request.URL.Path) {
				liftVerificationLock(e)
			}
			return e.Next()
		})
		return se.Next()
	})
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
