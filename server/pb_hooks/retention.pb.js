/// <reference path="../../.cache/pocketbase/types.d.ts" />
// Issue 19 point 5: retention (lib/retention.js decides who is due; lib/erasure.js deletes).
//
// The cron `screenroom_retention` runs daily (03:30 UTC) by default; RETENTION_SCHEDULE (a cron expression) changes
// that. The tests set one that never comes ("0 0 31 2 *") and start runs through the crons API. A malformed one stops
// PocketBase from starting, with cronAdd's message. Each run logs one "screenroom_retention" entry with what it
// deleted (the tests read it to know a run has finished: the crons API only starts one).
cronAdd("screenroom_retention", require(`${__hooks}/lib/retention.js`).schedule(), () => {
  const result = require(`${__hooks}/lib/retention.js`).runRetention($app);
  $app.logger().info("screenroom_retention", "deleted", result.deleted, "failed", result.failed);
});

// A company's period is one of the offered ones (0: keep forever). Only its managers change it (the update rule).
onRecordValidate((e) => {
  const { RETENTION_MONTHS, RETENTION_MESSAGE } = require(`${__hooks}/lib/retention.js`);
  if (RETENTION_MONTHS.indexOf(e.record.getInt("retentionMonths")) === -1) {
    throw require(`${__hooks}/lib/util.js`).fieldError("retentionMonths", RETENTION_MESSAGE, "validation_invalid_value");
  }
  e.next();
}, "companies");

// GET /api/screenroom/companies/{id}/retention: for the company edit screen, what the next run will delete and when.
// 200 { retentionMonths, nextRunAt ('' when no run is scheduled within 400 days), count, candidates: the first
// PREVIEW of them, oldest reason first: [{ id, firstName, lastName, email, jobId, jobTitle, reason: "job_closed" |
// "inactive", since }] }. Without a next run, who is due now. Only the company's managers (its update rule);
// anyone else, and an unknown company, gets the same 404.
routerAdd("GET", "/api/screenroom/companies/{id}/retention", (e) => {
  const PREVIEW = 5;
  const { findByIdOrNull, requestUser } = require(`${__hooks}/lib/util.js`);
  const retention = require(`${__hooks}/lib/retention.js`);
  const { nowMs, dbTime } = require(`${__hooks}/lib/clock.js`);
  const notFound = () => new NotFoundError("The requested resource wasn't found.");
  if (!requestUser(e)) throw notFound();
  const company = findByIdOrNull(e.app, "companies", e.request.pathValue("id"));
  if (!company || !e.app.canAccessRecord(company, e.requestInfo(), company.collection().updateRule)) throw notFound();
  const now = nowMs(e.app);
  const next = retention.nextRunMs(retention.registeredSchedule(e.app), now);
  const due = company.getInt("retentionMonths") > 0 ? retention.dueCandidates(e.app, next === null ? now : next, company.id) : [];
  return e.json(200, {
    retentionMonths: company.getInt("retentionMonths"),
    nextRunAt: next === null ? "" : dbTime(next),
    count: due.length,
    candidates: due.slice(0, PREVIEW).map((c) => ({
      id: c.id,
      firstName: c.firstName,
      lastName: c.lastName,
      email: c.email,
      jobId: c.job,
      jobTitle: c.jobTitle,
      reason: c.reason,
      since: c.since,
    })),
  });
});
