// Package accounts: Product accounts: e-mails stored lower-cased, sign-up through a manager invite, no sign-in before the e-mail is confirmed, account e-mails within each address's budget, per-account sign-in throttle, the verification resend right after sign-up, a user's own fields.
package accounts

import "github.com/pocketbase/pocketbase/core"

// Register binds the package's routes and hooks to app.
func Register(app core.App) {
	registerUsers(app)
	registerSigninThrottle(app)
	registerVerificationResend(app)
	registerUsersEnrich(app)
}
