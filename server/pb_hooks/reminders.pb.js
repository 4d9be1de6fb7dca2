/// <reference path="../../.cache/pocketbase/types.d.ts" />
// Issue 17 point 5: reminder e-mails before a candidate's deadline, 48 hours and 4 hours ahead, each at most once,
// never to a completed or withdrawn candidate nor one of a closed job (lib/candidate-mails.js sendDueReminders, on the clock of
// lib/clock.js). Every 10 minutes by default, so a reminder leaves at most 10 minutes after it is due.
// REMINDERS_SCHEDULE (a cron expression) changes that; the reminders' tests set one that never comes ("0 0 31 2 *"),
// so only the runs they start through the crons API happen. A malformed one stops PocketBase from starting, with
// cronAdd's message: a silent fallback would hide it. Each run logs what it sent (the tests read that entry to know
// a run has finished: the crons API only starts one).
cronAdd("screenroom_reminders", String($os.getenv("REMINDERS_SCHEDULE") || "").trim() || "*/10 * * * *", () => {
  const sent = require(`${__hooks}/lib/candidate-mails.js`).sendDueReminders($app);
  $app.logger().info("screenroom_reminders", "early", sent.early, "late", sent.late);
});
