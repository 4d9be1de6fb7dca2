package companies

import (
	"slices"

	"screenroom/server/internal/platform"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
)

const (
	ownerStaysManager = "The owner of the company cannot be removed from its managers."
	ownerUnchangeable = "The owner of a company cannot be changed."
	joinByInvite      = "Managers join a company by accepting an invite."
	onlyOwnerRemoves  = "Only the owner of the company can remove other managers; you can remove only yourself."
)

func registerManagers(app core.App) {
	app.OnRecordCreateRequest("companies").BindFunc(createCompany)
	app.OnRecordUpdateRequest("companies").BindFunc(updateManagers)

	// the owner always stays one of the managers, whoever saves the company (the API, a hook, a cascade)
	app.OnRecordValidate("companies").BindFunc(func(e *core.RecordEvent) error {
		if owner := e.Record.GetString("owner"); owner != "" && !platform.IsManager(e.Record, owner) {
			return platform.FieldError("managers", ownerStaysManager, "")
		}
		return e.Next()
	})
}

// createCompany: a user's new company has them as its owner and only manager, and becomes their primaryCompany if
// they had none, in the same transaction.
func createCompany(e *core.RecordRequestEvent) error {
	user := platform.RequestUser(e.RequestEvent)
	if user == nil {
		// superusers (seed scripts, tools) choose managers and owner themselves; the owner defaults to the first
		// manager, and a chosen owner is a manager too
		managers := e.Record.GetStringSlice("managers")
		owner := e.Record.GetString("owner")
		if owner == "" && len(managers) > 0 {
			owner = managers[0]
		}
		e.Record.Set("owner", owner)
		if owner != "" && !slices.Contains(managers, owner) {
			e.Record.Set("managers", append([]string{owner}, managers...))
		}
		return e.Next()
	}
	e.Record.Set("managers", []string{user.Id})
	e.Record.Set("owner", user.Id)
	outer := e.App
	defer func() { e.App = outer }()
	return outer.RunInTransaction(func(txApp core.App) error {
		e.App = txApp
		if err := e.Next(); err != nil {
			return err
		}
		fresh, err := txApp.FindRecordById("users", user.Id)
		if err != nil {
			return err
		}
		if fresh.GetString("primaryCompany") != "" {
			return nil
		}
		fresh.Set("primaryCompany", e.Record.Id)
		return txApp.Save(fresh)
	})
}

// updateManagers: nobody changes the owner through the API, a user adds no manager (invites do), the owner is never
// removed, and only the owner removes anyone but themselves. Whoever left or was removed no longer manages the
// company: a primaryCompany pointing at it (rule 2) moves to another company they manage, or is emptied, in the same
// transaction as the removal.
func updateManagers(e *core.RecordRequestEvent) error {
	user := platform.RequestUser(e.RequestEvent)
	original := e.Record.Original()
	owner := original.GetString("owner")
	if e.Record.GetString("owner") != owner {
		return platform.FieldError("owner", ownerUnchangeable, "")
	}

	before := original.GetStringSlice("managers")
	after := e.Record.GetStringSlice("managers")
	if user != nil {
		for _, id := range after {
			if !slices.Contains(before, id) {
				return platform.FieldError("managers", joinByInvite, "")
			}
		}
	}
	var removed []string
	for _, id := range before {
		if !slices.Contains(after, id) {
			removed = append(removed, id)
		}
	}
	if owner != "" && slices.Contains(removed, owner) {
		return platform.FieldError("managers", ownerStaysManager, "")
	}
	if user != nil && user.Id != owner && slices.ContainsFunc(removed, func(id string) bool { return id != user.Id }) {
		return platform.FieldError("managers", onlyOwnerRemoves, "")
	}
	if len(removed) == 0 {
		return e.Next()
	}

	outer := e.App
	defer func() { e.App = outer }()
	return outer.RunInTransaction(func(txApp core.App) error {
		e.App = txApp
		if err := e.Next(); err != nil {
			return err
		}
		for _, id := range removed {
			gone := platform.FindFirstOrNil(txApp, "users", "id = {:id} && primaryCompany = {:c}", dbx.Params{"id": id, "c": e.Record.Id})
			if gone == nil {
				continue
			}
			next := platform.FindFirstOrNil(txApp, "companies", "managers.id ?= {:u} && id != {:c}", dbx.Params{"u": id, "c": e.Record.Id})
			nextID := ""
			if next != nil {
				nextID = next.Id
			}
			gone.Set("primaryCompany", nextID)
			if err := txApp.Save(gone); err != nil {
				return err
			}
		}
		return nil
	})
}
