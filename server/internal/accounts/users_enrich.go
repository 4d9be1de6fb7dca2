package accounts

import "github.com/pocketbase/pocketbase/core"

// usersOwnFields are what only the user (and superusers) see of a users record: the company they last chose and their
// preferences (completionMailsOff, issue 17). Fellow managers see name, e-mail and avatar.
var usersOwnFields = []string{"primaryCompany", "completionMailsOff"}

// registerUsersEnrich hides them wherever the API serialises a user (view, list, an expand such as a pipeline row's
// decisionBy or a company's managers, a realtime event). In Go rather than a JS onRecordEnrich for the reason
// candidate_enrich.go gives: PocketBase runs a list's enrich hooks nested, so a JS handler held one JS runtime per
// record until the last returned (issue 20: a pipeline page expanding decisionBy).
func registerUsersEnrich(app core.App) {
	app.OnRecordEnrich("users").BindFunc(func(e *core.RecordEnrichEvent) error {
		var auth *core.Record
		if e.RequestInfo != nil {
			auth = e.RequestInfo.Auth
		}
		if auth == nil || (!auth.IsSuperuser() && (auth.Collection().Name != "users" || auth.Id != e.Record.Id)) {
			e.Record.Hide(usersOwnFields...)
		}
		return e.Next()
	})
}
