/// <reference path="../../../.cache/pocketbase/types.d.ts" />
// The hourly sweep of staged takes (pb_hooks/takes.pb.js registers it): rows in lib/takes.js, files in
// lib/take-files.js.

/** How long a staged take is kept after it last changed (decisions.md: 30 days while jobs have no deadline). */
const KEEP_TAKES_SECONDS = 30 * 24 * 60 * 60;

/** PocketBase's datetime text (UTC, "2006-01-02 15:04:05.000Z") of `ms` since the epoch. */
function dbTime(ms) {
  return new Date(ms).toISOString().replace("T", " ");
}

/**
 * The hourly sweep: removes staged takes whose row was not updated for `maxAgeSeconds` (each part updates it), row
 * and dir; the dirs of replaced takes still there (a removal that failed); and anything else under the staging root
 * without a row (a take whose candidate or question was deleted, leftovers of older versions) once nothing in it
 * changed for `maxAgeSeconds`. Returns how many takes and dirs it removed.
 */
function removeStaleTakes(app, maxAgeSeconds) {
  const { COLLECTION, findRow } = require(`${__hooks}/lib/takes.js`);
  const { removeTake, stagingRoot } = require(`${__hooks}/lib/take-files.js`);
  const cutoff = dbTime(Date.now() - maxAgeSeconds * 1000);
  let removed = 0;
  for (const stale of app.findRecordsByFilter(COLLECTION, "updated < {:cutoff}", "", 0, 0, { cutoff: cutoff })) {
    const takeId = stale.getString("take");
    try {
      let deleted = false;
      require(`${__hooks}/lib/util.js`).runRefusable(app, (txApp) => {
        // a part may have come in since the list was read
        const row = findRow(txApp, takeId);
        if (row && row.getString("updated") < cutoff) {
          txApp.delete(row);
          deleted = true;
        }
      });
      if (!deleted) continue;
      removeTake(app, takeId);
      removed++;
    } catch (err) {
      app.logger().warn("could not remove a stale staged take", "take", takeId, "error", String(err));
    }
  }

  const rootDir = stagingRoot(app);
  let entries;
  try {
    entries = $os.readDir(rootDir);
  } catch (_) {
    return removed; // nothing staged yet
  }
  const rows = {};
  for (const row of app.findAllRecords(COLLECTION)) rows[row.getString("take")] = row;
  const now = Date.now() / 1000;
  for (const entry of entries) {
    const name = entry.name();
    const row = rows[name];
    if (row && !row.getBool("retired")) continue; // a live take: its row decides
    const dir = $filepath.join(rootDir, name);
    if (!row) {
      let newest = 0;
      try {
        newest = Number(entry.info().modTime().unix());
        if (entry.isDir()) {
          for (const inner of $os.readDir(dir)) newest = Math.max(newest, Number(inner.info().modTime().unix()));
        }
      } catch (_) {
        continue; // removed meanwhile
      }
      if (now - newest < maxAgeSeconds) continue; // maybe a take whose row is being inserted right now
    }
    try {
      $os.removeAll(dir);
      removed++;
    } catch (err) {
      app.logger().warn("could not remove a staged take's dir", "name", name, "error", String(err));
    }
  }
  return removed;
}

module.exports = { KEEP_TAKES_SECONDS, removeStaleTakes };
