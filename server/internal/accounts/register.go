// Package accounts: Product accounts: per-account sign-in throttle, the verification resend right after sign-up, a user's own fields.
package accounts

import "github.com/pocketbase/pocketbase/core"

// Register binds the package's routes and hooks to app.
func Register(app core.App) {
	registerSigninThrottle(app)
	registerVerificationResend(app)
	registerUsersEnrich(app)
}
