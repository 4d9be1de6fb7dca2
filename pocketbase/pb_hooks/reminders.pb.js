/// <reference path="../../.cache/pocketbase/types.d.ts" />
// Issue 17 point 5: reminder e-mails before a candidate's deadline, 48 hours and 4 hours ahead, each at most once,
// never to a completed or withdrawn candidate (lib/candidate-mails.js sendDueReminders, on the clock of
// lib/clock.js). Every 10 minutes, so a reminder leaves at most 10 minutes after it is due. Each run logs what it
// sent (the tests read that entry to know a run has finished: the crons API only starts one).
cronAdd("screenroom_reminders", "*/10 * * * *", () => {
  const sent = require(`${__hooks}/lib/candidate-mails.js`).sendDueReminders($app);
  $app.logger().info("screenroom_reminders", "early", sent.early, "late", sent.late);
});
