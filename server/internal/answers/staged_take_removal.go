package answers

import (
	"screenroom/server/internal/takes"

	"github.com/pocketbase/pocketbase/core"
)

// A staged take's parts live outside PocketBase's file storage ({dataDir}/screenroom_takes/{take}): when its row goes
// (its candidate or question deleted, cascading), they go too, not only at the takes' next sweep.
func registerStagedTakeRemoval(app core.App) {
	app.OnRecordAfterDeleteSuccess("staged_takes").BindFunc(func(e *core.RecordEvent) error {
		// an empty id would name the staging root itself, every take's parts
		if take := e.Record.GetString("take"); take != "" {
			takes.RemoveTakesQuietly(e.App, []string{take})
		}
		return e.Next()
	})
}
