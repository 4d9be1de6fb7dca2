package review

// A share link does not outlive its maker's place in the company (decisions.md: "Share links of a removed manager are
// revoked at removal and stay revoked if they are added again; the owner's list of live links is in the company
// settings"): whenever a company's managers list loses someone, however it is saved (the records API, a batch, a
// manager leaving by themselves, a superuser, a hook, a user's deletion), every share link they made for a candidate
// of that company and not revoked yet is revoked in the same transaction as the save that removed them. revokedAt
// stays set, so being added again revives nothing; revokedBy stays empty: the server revoked it, not a manager. A
// link whose maker no longer manages its company does not open anyway (linkRefusal, share_links.go).

import (
	"slices"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/types"
)

func registerShareLinkRevoke(app core.App) {
	app.OnRecordUpdate("companies").BindFunc(revokeLinksOfRemovedManagers)
}

// removedManagers are the ids in the record's stored managers that the record being saved no longer has.
func removedManagers(record *core.Record) []string {
	after := record.GetStringSlice("managers")
	var removed []string
	for _, id := range record.Original().GetStringSlice("managers") {
		if id != "" && !slices.Contains(after, id) {
			removed = append(removed, id)
		}
	}
	return removed
}

// revokeLinksOfRemovedManagers runs the company's save and the revocation in one transaction (the caller's, when it
// already runs in one). The event's app is the transaction's only while the save runs: the hooks after a successful
// save, which PocketBase runs with the event's app, get the app they were saved with.
func revokeLinksOfRemovedManagers(e *core.RecordEvent) error {
	removed := removedManagers(e.Record)
	if len(removed) == 0 {
		return e.Next()
	}
	outer := e.App
	err := outer.RunInTransaction(func(txApp core.App) error {
		e.App = txApp
		if err := e.Next(); err != nil {
			return err
		}
		return revokeShareLinksOf(txApp, e.Record.Id, removed)
	})
	e.App = outer
	return err
}

// revokeShareLinksOf revokes every link one of makers made for a candidate of the company and not revoked yet,
// expired ones too, through the records layer (so the managers' lists get their realtime update).
func revokeShareLinksOf(app core.App, companyID string, makers []string) error {
	ids := make([]any, len(makers))
	for i, id := range makers {
		ids[i] = id
	}
	var links []*core.Record
	err := app.RecordQuery("share_links").
		InnerJoin("candidates", dbx.NewExp("candidates.id = share_links.candidate")).
		InnerJoin("jobs", dbx.NewExp("jobs.id = candidates.job")).
		AndWhere(dbx.HashExp{"jobs.company": companyID}).
		AndWhere(dbx.In("share_links.createdBy", ids...)).
		AndWhere(dbx.NewExp("COALESCE(share_links.revokedAt, '') = ''")).
		All(&links)
	if err != nil {
		return err
	}
	now := types.NowDateTime()
	for _, link := range links {
		link.Set("revokedAt", now)
		if err := app.Save(link); err != nil {
			return err
		}
	}
	return nil
}
