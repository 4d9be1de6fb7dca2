/// <reference path="../../../.cache/pocketbase/types.d.ts" />
// The hourly sweep of staged takes (pb_hooks/takes.pb.js registers it): rows in lib/takes.js, files in
// lib/take-files.js.

/** How long a staged take of a candidate without a deadline is kept after it last changed (decisions.md "Staged takes"). */
const KEEP_TAKES_SECONDS = 30 * 24 * 60 * 60;

/**
 * The hourly sweep: removes staged takes the interview can no longer use, row and dir: those of a candidate with a
 * deadline once the deadline's grace window (lib/interview-rules.js GRACE_MS) is over, whatever their age; those of
 * a candidate without one whose row was not updated for `maxAgeSeconds` (each part updates it). Then the dirs of
 * replaced takes still there (a removal that failed), and anything else under the staging root without a row (a
 * take whose candidate or question was deleted, leftovers of older versions) once nothing in it changed for
 * `maxAgeSeconds`. Times are the server's clock (lib/clock.js). Returns how many takes and dirs it removed.
 */
function removeStaleTakes(app, maxAgeSeconds) {
  const { COLLECTION, findRow } = require(`${__hooks}/lib/takes.js`);
  const { removeTake, stagingRoot } = require(`${__hooks}/lib/take-files.js`);
  const { dbTime, nowMs } = require(`${__hooks}/lib/clock.js`);
  const { GRACE_MS } = require(`${__hooks}/lib/interview-rules.js`);
  const cutoff = dbTime(nowMs(app) - maxAgeSeconds * 1000);
  const closedBefore = dbTime(nowMs(app) - GRACE_MS);
  // a take is stale by its candidate's deadline when it has one, else by its own age (a row whose candidate is gone
  // was removed with it: the relation cascades)
  const staleSql = (prefix) =>
    `${prefix} FROM ${COLLECTION} t LEFT JOIN candidates c ON c.id = t.candidate
     WHERE ((COALESCE(c.deadline, '') != '' AND c.deadline < {:closedBefore})
        OR (COALESCE(c.deadline, '') = '' AND t.updated < {:cutoff}))`;
  const params = { cutoff: cutoff, closedBefore: closedBefore };
  const stale = arrayOf(new DynamicModel({ take: "" }));
  app.db().newQuery(staleSql("SELECT t.take AS take")).bind(params).all(stale);
  let removed = 0;
  for (const item of stale) {
    const takeId = item.take;
    try {
      let deleted = false;
      require(`${__hooks}/lib/util.js`).runRefusable(app, (txApp) => {
        // a part may have come in since the list was read, or the deadline moved: decided again on the row
        const row = findRow(txApp, takeId);
        if (!row) return;
        const still = new DynamicModel({ n: 0 });
        txApp.db().newQuery(staleSql("SELECT count(*) AS n") + " AND t.id = {:id}").bind(Object.assign({ id: row.id }, params)).one(still);
        if (still.n > 0) {
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
  const now = Date.now() / 1000; // the files' own times: the real clock
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
