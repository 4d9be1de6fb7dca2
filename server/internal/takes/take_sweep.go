package takes

import (
	"os"
	"path/filepath"
	"time"

	"screenroom/server/internal/interview"
	"screenroom/server/internal/platform"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
)

// keepTakes is how long a staged take of a candidate without a deadline is kept after it last changed (decisions.md
// "Staged takes").
const keepTakes = 30 * 24 * time.Hour

// Takes never submitted are the candidate's recording (decisions.md "Staged takes"): kept while the interview can
// still be answered, then removed, rows and dirs: until the candidate's deadline plus its grace window, or
// keepTakes after the take last changed for a candidate without one. A cron, so the crons API and the dashboard's
// Run button see it.
func registerStaleTakesSweep(app core.App) {
	app.Cron().MustAdd("screenroomStaleTakes", "0 * * * *", func() {
		if removed := removeStaleTakes(app, keepTakes); removed > 0 {
			app.Logger().Info("removed stale staged takes", "count", removed)
		}
	})
}

// staleTakesSQL selects from the takes stale by their candidate's deadline when it has one, else by their own age
// (a row whose candidate is gone was removed with it: the relation cascades).
func staleTakesSQL(selection string) string {
	return selection + ` FROM ` + stagedTakes + ` t LEFT JOIN candidates c ON c.id = t.candidate
     WHERE ((COALESCE(c.deadline, '') != '' AND c.deadline < {:closedBefore})
        OR (COALESCE(c.deadline, '') = '' AND t.updated < {:cutoff}))`
}

// removeStaleTakes removes the staged takes the interview can no longer use, row and dir: those of a candidate with
// a deadline once the deadline's grace window is over, whatever their age; those of a candidate without one whose
// row was not updated for maxAge (each part updates it). Then the dirs of replaced takes still there (a removal that
// failed), and anything else under the staging root without a row (a take whose candidate or question was deleted,
// leftovers of older versions) once nothing in it changed for maxAge. Times are the server's clock. Returns how many
// takes and dirs it removed.
func removeStaleTakes(app core.App, maxAge time.Duration) int {
	now := platform.Now(app)
	params := dbx.Params{
		"cutoff":       platform.DBTime(now.Add(-maxAge)),
		"closedBefore": platform.DBTime(now.Add(-interview.Grace)),
	}
	var stale []struct {
		Take string `db:"take"`
	}
	if err := app.DB().NewQuery(staleTakesSQL("SELECT t.take AS take")).Bind(params).All(&stale); err != nil {
		app.Logger().Warn("could not list the stale staged takes", "error", err.Error())
		return 0
	}
	removed := 0
	for _, item := range stale {
		takeID := item.Take
		deleted := false
		err := app.RunInTransaction(func(txApp core.App) error {
			deleted = false
			// a part may have come in since the list was read, or the deadline moved: decided again on the row
			row := FindRow(txApp, takeID)
			if row == nil {
				return nil
			}
			var still struct {
				N int `db:"n"`
			}
			rowParams := dbx.Params{"id": row.Id}
			for k, v := range params {
				rowParams[k] = v
			}
			if err := txApp.DB().NewQuery(staleTakesSQL("SELECT count(*) AS n") + " AND t.id = {:id}").Bind(rowParams).One(&still); err != nil {
				return err
			}
			if still.N == 0 {
				return nil
			}
			if err := txApp.Delete(row); err != nil {
				return err
			}
			deleted = true
			return nil
		})
		if err == nil && deleted {
			err = removeTake(app, takeID)
			if err == nil {
				removed++
			}
		}
		if err != nil {
			app.Logger().Warn("could not remove a stale staged take", "take", takeID, "error", err.Error())
		}
	}

	rootDir := stagingRoot(app)
	entries, err := os.ReadDir(rootDir)
	if err != nil {
		return removed // nothing staged yet
	}
	all, err := app.FindAllRecords(stagedTakes)
	if err != nil {
		app.Logger().Warn("could not list the staged takes", "error", err.Error())
		return removed
	}
	rows := make(map[string]*core.Record, len(all))
	for _, row := range all {
		rows[row.GetString("take")] = row
	}
	wallNow := time.Now() // the files' own times: the real clock
	for _, entry := range entries {
		name := entry.Name()
		row := rows[name]
		if row != nil && !row.GetBool("retired") {
			continue // a live take: its row decides
		}
		dir := filepath.Join(rootDir, name)
		if row == nil {
			newest, ok := newestChange(entry, dir)
			if !ok {
				continue // removed meanwhile
			}
			if wallNow.Sub(newest) < maxAge {
				continue // maybe a take whose row is being inserted right now
			}
		}
		if err := os.RemoveAll(dir); err != nil {
			app.Logger().Warn("could not remove a staged take's dir", "name", name, "error", err.Error())
			continue
		}
		removed++
	}
	return removed
}

// newestChange is when entry (at path), or anything directly in it, last changed; false when it is gone.
func newestChange(entry os.DirEntry, path string) (time.Time, bool) {
	info, err := entry.Info()
	if err != nil {
		return time.Time{}, false
	}
	newest := info.ModTime()
	if !entry.IsDir() {
		return newest, true
	}
	inner, err := os.ReadDir(path)
	if err != nil {
		return time.Time{}, false
	}
	for _, item := range inner {
		itemInfo, err := item.Info()
		if err != nil {
			return time.Time{}, false
		}
		if itemInfo.ModTime().After(newest) {
			newest = itemInfo.ModTime()
		}
	}
	return newest, true
}
