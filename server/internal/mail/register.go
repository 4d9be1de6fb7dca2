// Package mail: outgoing mail. The queue that sends at a steady pace with retries, the interview e-mail, the e-mails
// the server sends on its own about a candidate (deadline reminders, the completion receipt and the managers'
// notices), and the manager invites with their e-mail.
package mail

import "github.com/pocketbase/pocketbase/core"

// Register binds the package's routes, hooks and crons to app.
func Register(app core.App) {
	registerMailQueue(app)
	registerCompletionMails(app)
	registerReminders(app)
	registerManagerInvites(app)
}
