/// <reference path="../../.cache/pocketbase/types.d.ts" />
// Issue 19 point 5: job lifecycle and retention (decisions.md "Data lifetime").
// - jobs.closedAt: when a manager closed the job ('' while open). Set and cleared only by the routes
//   POST /api/screenroom/jobs/{id}/close and /reopen (jobs.pb.js); the records API keeps the stored value. Closing
//   deletes nothing: the candidate's link shows a closed page, answers and invites are refused, reminders stop.
// - companies.retentionMonths: how long the company keeps a candidate after their job closed or their last activity
//   (0 or empty: forever). One of lib/retention.js RETENTION_MONTHS; the daily cron `screenroom_retention` deletes
//   who is past it.

migrate(
  (app) => {
    const jobs = app.findCollectionByNameOrId("jobs");
    jobs.fields.add(new DateField({ name: "closedAt" }));
    app.save(jobs);

    const companies = app.findCollectionByNameOrId("companies");
    companies.fields.add(new NumberField({ name: "retentionMonths", min: 0, max: 120, onlyInt: true }));
    app.save(companies);
  },
  (app) => {
    const jobs = app.findCollectionByNameOrId("jobs");
    jobs.fields.removeByName("closedAt");
    app.save(jobs);
    const companies = app.findCollectionByNameOrId("companies");
    companies.fields.removeByName("retentionMonths");
    app.save(companies);
  },
);
