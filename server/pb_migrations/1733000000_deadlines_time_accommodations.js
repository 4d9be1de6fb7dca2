/// <reference path="../../.cache/pocketbase/types.d.ts" />
// Issue 17 points 5 to 8: deadlines and reminders, accommodations, withdrawal, fair time.
// - jobs.responseDays: the job's default response time in days (0 or empty: no deadline); an invite's deadline is
//   its creation time plus these days unless the manager sets its own.
// - video_questions.preparation: seconds to read and prepare before recording starts by itself (0 to 300; 30 for
//   existing questions and for a new one that does not say).
// - candidates.deadline: after it the interview is closed (what started before it may still be sent for a grace
//   window, lib/interview-rules.js); a manager moves it (extends) by updating the record.
// - candidates.withdrawn: set by a manager; the link then shows a closed page and reminders stop. withdrawnAt is
//   stamped by the server.
// - candidates.extraTime ("1.5", "2", "unlimited") and extraTakes (0 to 10): what a manager grants one candidate;
//   the interview shows only the resulting times and takes.
// - candidates.remindedEarlyAt / remindedLateAt / completionMailedAt: when the server sent the 48-hour and 4-hour
//   reminders and the completion e-mails (each once); server fields, refused to the records API.
// - users.completionMailsOff: a manager who does not want an e-mail when a candidate of their jobs finishes.

migrate(
  (app) => {
    const jobs = app.findCollectionByNameOrId("jobs");
    jobs.fields.add(new NumberField({ name: "responseDays", min: 0, max: 365, onlyInt: true }));
    app.save(jobs);

    const video = app.findCollectionByNameOrId("video_questions");
    video.fields.add(new NumberField({ name: "preparation", min: 0, max: 300, onlyInt: true }));
    app.save(video);
    app.db().newQuery("UPDATE video_questions SET preparation = 30").execute();

    const candidates = app.findCollectionByNameOrId("candidates");
    candidates.fields.add(new DateField({ name: "deadline" }));
    candidates.fields.add(new BoolField({ name: "withdrawn" }));
    candidates.fields.add(new DateField({ name: "withdrawnAt" }));
    candidates.fields.add(new SelectField({ name: "extraTime", maxSelect: 1, values: ["1.5", "2", "unlimited"] }));
    candidates.fields.add(new NumberField({ name: "extraTakes", min: 0, max: 10, onlyInt: true }));
    candidates.fields.add(new DateField({ name: "remindedEarlyAt" }));
    candidates.fields.add(new DateField({ name: "remindedLateAt" }));
    candidates.fields.add(new DateField({ name: "completionMailedAt" }));
    app.save(candidates);
    // Candidates who finished before completion e-mails existed are not mailed now.
    app
      .db()
      .newQuery("UPDATE candidates SET completionMailedAt = completedAt WHERE completedAt IS NOT NULL AND completedAt != ''")
      .execute();

    const users = app.findCollectionByNameOrId("users");
    users.fields.add(new BoolField({ name: "completionMailsOff" }));
    app.save(users);
  },
  (app) => {
    const drop = (name, fields) => {
      const collection = app.findCollectionByNameOrId(name);
      for (const field of fields) collection.fields.removeByName(field);
      app.save(collection);
    };
    drop("jobs", ["responseDays"]);
    drop("video_questions", ["preparation"]);
    drop("candidates", ["deadline", "withdrawn", "withdrawnAt", "extraTime", "extraTakes", "remindedEarlyAt", "remindedLateAt", "completionMailedAt"]);
    drop("users", ["completionMailsOff"]);
  },
);
