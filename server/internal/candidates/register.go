// Package candidates: inviting candidates to a job. A single invite's rules (the stored e-mail, one candidate per job
// and e-mail, the server's key, the address's mail budget and the manager's invite actions, the deadline and the
// withdrawal stamps) and its interview e-mail; a manager's resend of the invitation; invites from a CSV file, sent in
// chunks, each row saved with the rules of a single invite.
package candidates

import "github.com/pocketbase/pocketbase/core"

// Register binds the package's routes and hooks to app.
func Register(app core.App) {
	registerInviteRules(app)
	registerResend(app)
	registerBulkInvites(app)
}
