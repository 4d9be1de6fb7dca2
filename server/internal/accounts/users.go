package accounts

import (
	"net/http"
	"regexp"
	"strings"

	"screenroom/server/internal/platform"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/router"
	"github.com/spf13/cast"
)

// Users: e-mails stored lower-cased (decisions.md), primaryCompany only a managed company (rule 2), sign-up through a
// manager invite (rule 5), an unverified account does not sign in, and the account e-mails (reset, verification,
// e-mail change) within each address's e-mail budget (platform.TakeMailBudget). Fellow managers see name, e-mail
// and avatar only (users_enrich.go).

const invalidInvite = "This invitation is no longer valid"

const confirmEmailFirst = "Please confirm your e-mail first."

// an invite's key: 40 letters and digits (pb_migrations/1732700300_invite_key.js)
var inviteKeyPattern = regexp.MustCompile(`^[a-zA-Z0-9]{40}$`)

func registerUsers(app core.App) {
	normalize := func(e *core.RecordEvent) error {
		e.Record.SetEmail(platform.NormalizeEmail(e.Record.Email()))
		return e.Next()
	}
	app.OnRecordCreate("users").BindFunc(normalize)
	app.OnRecordUpdate("users").BindFunc(normalize)

	// rule 2: primaryCompany may only point at a company the user manages (or be empty)
	app.OnRecordValidate("users").BindFunc(func(e *core.RecordEvent) error {
		if companyID := e.Record.GetString("primaryCompany"); companyID != "" {
			company := platform.FindByIdOrNil(e.App, "companies", companyID)
			if company == nil || !platform.IsManager(company, e.Record.Id) {
				return platform.FieldError("primaryCompany", "You can only choose a company you manage.", "")
			}
		}
		return e.Next()
	})

	app.OnRecordCreateRequest("users").BindFunc(signUpWithInvite)
	app.OnRecordCreateExecute("users").BindFunc(acceptSignUpInvite)

	// An unverified account does not sign in (the users authRule `verified = true`, which also refuses its
	// auth-refresh). The refusal says why, but only to whoever knows the password: a wrong one gets PocketBase's own
	// 400 'Failed to authenticate.', as for an unknown address, after one password check as well, so neither the
	// answer nor its timing tells whether an unverified account exists.
	app.OnRecordAuthWithPasswordRequest("users").BindFunc(func(e *core.RecordAuthWithPasswordRequestEvent) error {
		if record := e.Record; record != nil && !record.Verified() {
			if !record.ValidatePassword(e.Password) {
				return e.BadRequestError("Failed to authenticate.", nil)
			}
			return e.ForbiddenError(confirmEmailFirst, nil)
		}
		return e.Next()
	})
	app.OnRecordAuthRefreshRequest("users").BindFunc(func(e *core.RecordAuthRefreshRequestEvent) error {
		if !e.Record.Verified() {
			return e.ForbiddenError(confirmEmailFirst, nil)
		}
		return e.Next()
	})

	// Password reset and verification e-mails: within the address's e-mail budget. PocketBase answers 204 whether or
	// not it mails, so a spent budget answers the same and sends nothing. PocketBase's two-minute lock on
	// verification requests is lifted before this (verification_resend.go).
	app.OnRecordRequestPasswordResetRequest("users").BindFunc(func(e *core.RecordRequestPasswordResetRequestEvent) error {
		if !platform.TakeMailBudget(e.App, e.Record.Email(), "account") {
			return e.NoContent(http.StatusNoContent)
		}
		return e.Next()
	})
	app.OnRecordRequestVerificationRequest("users").BindFunc(func(e *core.RecordRequestVerificationRequestEvent) error {
		if !platform.TakeMailBudget(e.App, e.Record.Email(), "account") {
			return e.NoContent(http.StatusNoContent)
		}
		return e.Next()
	})

	// An e-mail change mails the new address, someone else's until it is confirmed: not for an unverified account
	// (it acts on nothing but its own profile and verification), and within the new address's budget.
	app.OnRecordRequestEmailChangeRequest("users").BindFunc(func(e *core.RecordRequestEmailChangeRequestEvent) error {
		if e.Record != nil && !e.Record.Verified() {
			return e.ForbiddenError(confirmEmailFirst, nil)
		}
		if err := platform.RequireMailBudget(e.App, strings.ToLower(strings.TrimSpace(e.NewEmail)), "newEmail"); err != nil {
			return err
		}
		return e.Next()
	})
}

// signupInviteKey is where a sign-up's accepted invite waits, in the app's store, for the sign-up's insert
// (acceptSignUpInvite), which runs in the same request.
func signupInviteKey(email string) string {
	return "signupInvite:" + email
}

// Rule 5: sign-up with an invite. The invite must exist and match the e-mail; then the new user joins the company,
// the invite is deleted, and the account is verified, all in the sign-up's transaction. `invite` is the invite's key,
// which only its e-mail carries (pb_migrations/1732700300_invite_key.js), never its id: the id reaches others (its
// company's managers, filter oracles), and the sign-up verifies the address.
func signUpWithInvite(e *core.RecordRequestEvent) error {
	info, err := e.RequestInfo()
	if err != nil {
		return e.BadRequestError("", err)
	}
	inviteKey := strings.TrimSpace(cast.ToString(info.Body["invite"]))
	if inviteKey == "" {
		return e.Next()
	}
	email := platform.NormalizeEmail(e.Record.Email())
	var invite *core.Record
	if inviteKeyPattern.MatchString(inviteKey) {
		invite = platform.FindFirstOrNil(e.App, "manager_invites", "secret = {:key}", dbx.Params{"key": inviteKey})
	}
	if invite == nil || platform.NormalizeEmail(invite.GetString("email")) != email {
		return e.BadRequestError(invalidInvite, nil)
	}
	key := signupInviteKey(email)
	e.App.Store().Set(key, invite.Id)
	defer e.App.Store().Remove(key)
	outer := e.App
	defer func() { e.App = outer }()
	return outer.RunInTransaction(func(txApp core.App) error {
		e.App = txApp
		return e.Next()
	})
}

// acceptSignUpInvite runs inside the sign-up's save (after validation, before the insert), so the response already
// shows verified and primaryCompany, and a failure here rolls the whole sign-up back.
func acceptSignUpInvite(e *core.RecordEvent) error {
	inviteID, _ := e.App.Store().Get(signupInviteKey(platform.NormalizeEmail(e.Record.Email()))).(string)
	if inviteID == "" {
		return e.Next()
	}
	invite := platform.FindByIdOrNil(e.App, "manager_invites", inviteID)
	if invite == nil {
		return router.NewBadRequestError(invalidInvite, nil)
	}
	companyID := invite.GetString("company")
	e.Record.SetVerified(true)
	e.Record.Set("primaryCompany", companyID)
	if err := e.Next(); err != nil {
		return err
	}
	company, err := e.App.FindRecordById("companies", companyID)
	if err != nil {
		return err
	}
	company.Set("managers+", e.Record.Id)
	if err := e.App.Save(company); err != nil {
		return err
	}
	return e.App.Delete(invite)
}
