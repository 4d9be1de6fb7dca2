/// <reference path="../../../.cache/pocketbase/types.d.ts" />
// The server's clock for deadlines, preparation and answer times and reminders (issue 17). In production it is the
// system clock. A PocketBase started with SCREENROOM_TEST_CLOCK=1 (tests only) adds an offset a superuser sets with
// POST /api/screenroom/test-clock {offsetMs} (clock.pb.js), so a test moves time forward without waiting for it;
// every other server has no such route and no offset.

const STORE_KEY = "screenroom.testClockOffsetMs";

function testClockEnabled() {
  return $os.getenv("SCREENROOM_TEST_CLOCK") === "1";
}

/** Now, in milliseconds since the epoch, on the server's clock. */
function nowMs(app) {
  if (!testClockEnabled()) return Date.now();
  const offset = Number(app.store().get(STORE_KEY) || 0);
  return Date.now() + (Number.isFinite(offset) ? offset : 0);
}

/** PocketBase's datetime text (UTC, "2006-01-02 15:04:05.000Z") of a time in milliseconds. */
function dbTime(ms) {
  return new Date(ms).toISOString().replace("T", " ");
}

/** Now as PocketBase's datetime text. */
function nowText(app) {
  return dbTime(nowMs(app));
}

/** Milliseconds of a stored date field's text ("2006-01-02 15:04:05.000Z"); NaN when empty. */
function parseDbTime(text) {
  if (!text) return NaN;
  return Date.parse(String(text).replace(" ", "T"));
}

module.exports = { STORE_KEY, testClockEnabled, nowMs, nowText, dbTime, parseDbTime };
