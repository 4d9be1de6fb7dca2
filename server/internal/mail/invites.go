package mail

import (
	htmltemplate "html/template"
	"net/http"
	"net/mail"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/apis"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/mailer"
	"github.com/pocketbase/pocketbase/tools/security"

	"screenroom/server/internal/platform"
)

// Manager invites (business rules 3 and 4): one pending invite per company and e-mail, never for a current manager,
// and the invite e-mail goes out once the invite is stored; accepting is one transaction.

const inviteKeyAlphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

var managerInviteHTML = htmltemplate.Must(htmltemplate.New("manager invite").Parse(
	`<p>Hello,</p><p>You have been invited to join <strong>{{.CompanyName}}</strong> as a manager on Screenroom.</p>` +
		`<p><a href="{{.AcceptURL}}">Accept the invite</a> if you already have a Screenroom account.</p>` +
		`<p>New to Screenroom? <a href="{{.SignUpURL}}">Sign up with this invite</a>.</p>` +
		`<p>The Screenroom team</p>`))

type managerInviteData struct {
	CompanyName, AcceptURL, SignUpURL string
}

func registerManagerInvites(app core.App) {
	// the invite e-mail goes to an address of the manager's choosing: within that address's budget
	app.OnRecordCreateRequest("manager_invites").BindFunc(func(e *core.RecordRequestEvent) error {
		if !e.HasSuperuserAuth() {
			if err := platform.RequireMailBudget(e.App, platform.NormalizeEmail(e.Record.GetString("email")), "email"); err != nil {
				return err
			}
		}
		return e.Next()
	})

	app.OnRecordCreate("manager_invites").BindFunc(func(e *core.RecordEvent) error {
		e.Record.Set("email", platform.NormalizeEmail(e.Record.GetString("email")))
		// The key of the sign-up link (pb_migrations/1732700300_invite_key.js) is the server's own, never one a client
		// sent: a manager who chose it could sign up, verified, as anyone they invite.
		e.Record.Set("secret", security.RandomStringWithAlphabet(40, inviteKeyAlphabet))
		return e.Next()
	})

	app.OnRecordValidate("manager_invites").BindFunc(func(e *core.RecordEvent) error {
		email := e.Record.GetString("email")
		company := platform.FindByIdOrNil(e.App, "companies", e.Record.GetString("company"))
		if company != nil && email != "" {
			user := platform.FindFirstOrNil(e.App, "users", "email = {:email}", dbx.Params{"email": email})
			if user != nil && platform.IsManager(company, user.Id) {
				return platform.FieldError("email", "This person is already a manager of this company", "validation_already_manager")
			}
			err := platform.RefuseDuplicate(e.App, e.Record, "manager_invites", map[string]any{"company": company.Id, "email": email},
				"email", "This person has already been invited")
			if err != nil {
				return err
			}
		}
		return e.Next()
	})

	app.OnRecordAfterCreateSuccess("manager_invites").BindFunc(func(e *core.RecordEvent) error {
		company, err := e.App.FindRecordById("companies", e.Record.GetString("company"))
		if err != nil {
			return err
		}
		email := e.Record.GetString("email")
		base := platform.AppURL(e.App)
		// Both links carry the invite's key (only this mailbox gets it): the sign-up link as its `invite`, which
		// verifies the new account (rule 5), and the accept link for its own 'Sign up' button; the accept link names
		// the invite by id.
		key := e.Record.GetString("secret")
		html, err := renderHTML(managerInviteHTML, managerInviteData{
			CompanyName: company.GetString("name"),
			AcceptURL:   base + "/invites/" + e.Record.Id + "/" + platform.EncodeURIComponent(email) + "?key=" + key,
			SignUpURL:   base + "/auth/sign-up?invite=" + key + "&email=" + platform.EncodeURIComponent(email),
		})
		if err != nil {
			return err
		}
		// sent at once, not queued (README, "The mail queue")
		sendNow(e.App, Message{To: email, Subject: "You're invited to manage " + company.GetString("name") + " on Screenroom", HTML: html})
		return e.Next()
	})

	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		se.Router.POST("/api/screenroom/invites/{id}/accept", acceptManagerInvite).Bind(apis.RequireAuth("users"))
		return se.Next()
	})
}

// acceptManagerInvite: the signed-in, verified invitee joins the company (rule 4).
func acceptManagerInvite(e *core.RequestEvent) error {
	user := platform.RequestUser(e)
	if user == nil {
		return e.UnauthorizedError("Please sign in to accept the invite.", nil)
	}
	// Only an address the account has proved accepts its invites (a token issued before the account became
	// unverified still authenticates, so the sign-in refusal alone is not enough).
	if !user.Verified() {
		return e.ForbiddenError("Please confirm your e-mail first.", nil)
	}
	inviteID := e.Request.PathValue("id")
	companyID := ""
	err := e.App.RunInTransaction(func(tx core.App) error {
		invite := platform.FindByIdOrNil(tx, "manager_invites", inviteID)
		if invite == nil || platform.NormalizeEmail(invite.GetString("email")) != platform.NormalizeEmail(user.Email()) {
			return e.NotFoundError("This invitation is no longer valid", nil)
		}
		companyID = invite.GetString("company")
		company, err := tx.FindRecordById("companies", companyID)
		if err != nil {
			return err
		}
		company.Set("managers+", user.Id)
		if err := tx.Save(company); err != nil {
			return err
		}
		if err := tx.Delete(invite); err != nil {
			return err
		}
		fresh, err := tx.FindRecordById("users", user.Id)
		if err != nil {
			return err
		}
		if fresh.GetString("primaryCompany") == "" {
			fresh.Set("primaryCompany", companyID)
			return tx.Save(fresh)
		}
		return nil
	})
	if err != nil {
		return err
	}
	return e.JSON(http.StatusOK, map[string]string{"company": companyID})
}

// sendNow sends m at once through PocketBase's mail client, outside the queue; a failure is logged, never fails the
// request that caused it.
func sendNow(app core.App, m Message) {
	meta := app.Settings().Meta
	err := app.NewMailClient().Send(&mailer.Message{
		From:    mail.Address{Address: meta.SenderAddress, Name: meta.SenderName},
		To:      []mail.Address{{Address: m.To}},
		Subject: m.Subject,
		HTML:    m.HTML,
		Text:    m.Text,
	})
	if err != nil {
		app.Logger().Error("mail failed", "to", m.To, "subject", m.Subject, "error", err.Error())
	}
}
