/// <reference path="../../.cache/pocketbase/types.d.ts" />
// POST /api/screenroom/test-clock {offsetMs}: moves the server's clock (lib/clock.js) for tests. Only on a server
// started with SCREENROOM_TEST_CLOCK=1, and only for superusers; everywhere else the route answers 404.
routerAdd("POST", "/api/screenroom/test-clock", (e) => {
  const clock = require(`${__hooks}/lib/clock.js`);
  if (!clock.testClockEnabled() || !e.hasSuperuserAuth()) throw new NotFoundError("The requested resource wasn't found.");
  const offset = Number((e.requestInfo().body || {}).offsetMs);
  if (!Number.isFinite(offset)) throw new BadRequestError("offsetMs must be a number.");
  e.app.store().set(clock.STORE_KEY, offset);
  return e.json(200, { offsetMs: offset, now: clock.nowText(e.app) });
});
