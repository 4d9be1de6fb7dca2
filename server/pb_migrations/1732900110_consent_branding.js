/// <reference path="../../.cache/pocketbase/types.d.ts" />
// Issue 17 points 1 and 2: branding, a human start and consent.
// - jobs.welcomeMessage: the manager's optional welcome to the job's candidates, plain text up to 1,000 characters
//   (shown with its line breaks, never as HTML).
// - companies.privacyUrl: the company's optional privacy page, linked from the interview's start screen.
// - candidates.consentedAt: when the candidate ticked 'I agree' on the start screen, written only by
//   POST /api/screenroom/interviews/{key}/consent (the records API refuses it to all but superusers,
//   review-workflow.pb.js); answers and staged parts are refused before it (answers.pb.js, takes.pb.js).
// Existing candidates: one who already answered a question or staged a take started before consent existed; their
// interview must continue, so consentedAt is backfilled with the time of their first answer or staged take. A
// candidate who never started is asked on the start screen like a new one.

migrate(
  (app) => {
    const jobs = app.findCollectionByNameOrId("jobs");
    jobs.fields.add(new TextField({ name: "welcomeMessage", max: 1000 }));
    app.save(jobs);

    const companies = app.findCollectionByNameOrId("companies");
    companies.fields.add(new URLField({ name: "privacyUrl" }));
    app.save(companies);

    const candidates = app.findCollectionByNameOrId("candidates");
    candidates.fields.add(new DateField({ name: "consentedAt" }));
    app.save(candidates);

    app
      .db()
      .newQuery(
        `UPDATE candidates SET consentedAt = (
           SELECT min(t) FROM (
             SELECT min(created) AS t FROM answers WHERE answers.candidate = candidates.id
             UNION ALL
             SELECT min(created) AS t FROM staged_takes WHERE staged_takes.candidate = candidates.id
           ) WHERE t IS NOT NULL AND t != ''
         )
         WHERE EXISTS (SELECT 1 FROM answers WHERE answers.candidate = candidates.id)
            OR EXISTS (SELECT 1 FROM staged_takes WHERE staged_takes.candidate = candidates.id)`,
      )
      .execute();
  },
  (app) => {
    const jobs = app.findCollectionByNameOrId("jobs");
    jobs.fields.removeByName("welcomeMessage");
    app.save(jobs);
    const companies = app.findCollectionByNameOrId("companies");
    companies.fields.removeByName("privacyUrl");
    app.save(companies);
    const candidates = app.findCollectionByNameOrId("candidates");
    candidates.fields.removeByName("consentedAt");
    app.save(candidates);
  },
);
