package answers

import (
	"os"
	"path/filepath"

	"github.com/pocketbase/pocketbase/core"
)

// A staged take's parts live outside PocketBase's file storage ({dataDir}/screenroom_takes/{take}): when its row goes
// (its candidate or question deleted, cascading), they go too, not only at the takes' next sweep.
func registerStagedTakeRemoval(app core.App) {
	app.OnRecordAfterDeleteSuccess("staged_takes").BindFunc(func(e *core.RecordEvent) error {
		removeStagedTakeQuietly(e.App, e.Record.GetString("take"))
		return e.Next()
	})
}

// removeStagedTakeQuietly removes a take's staging folder, three tries, and logs (never fails with) what could not be
// removed: the sweep tries again later. A take id that is no single folder name (empty, a path) names no take's
// folder, and nothing is removed.
func removeStagedTakeQuietly(app core.App, takeID string) {
	if takeID == "" || takeID == "." || takeID == ".." || filepath.Base(takeID) != takeID {
		return
	}
	dir := filepath.Join(app.DataDir(), "screenroom_takes", takeID)
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = os.RemoveAll(dir); err == nil {
			return
		}
	}
	app.Logger().Warn("could not remove a staged take", "take", takeID, "error", err.Error())
}
