/// <reference path="../../.cache/pocketbase/types.d.ts" />
// Issue 16 point 3, history stays true:
// - answers keep the question as the candidate saw it: `questionTitle`, `questionDescription`, `questionKind`
//   (video / text), set by the server when the answer is created, whoever creates it (pb_hooks/history.pb.js). A
//   question renamed or reworded later no longer rewrites what its candidates were asked: the review and the shared
//   page show the snapshot. Clients never write them (answers are created by the server's route or a superuser, and
//   the create hook overwrites whatever was sent; the update rule stays null). Existing answers are backfilled from
//   their question as it is now: the best the data holds.
// - questions.archived, jobs.archived: what a manager puts away instead of deleting when deleting would lose
//   answers. Hidden from the lists and the question picker by default; reviews still show them. Written by the
//   company's managers through the existing update rules.

const SNAPSHOT_FIELDS = ["questionTitle", "questionDescription", "questionKind"];

migrate(
  (app) => {
    const answers = app.findCollectionByNameOrId("answers");
    answers.fields.add(new TextField({ name: "questionTitle", max: 100 }));
    answers.fields.add(new TextField({ name: "questionDescription", max: 1000 }));
    answers.fields.add(new SelectField({ name: "questionKind", maxSelect: 1, values: ["video", "text"] }));
    app.save(answers);

    // plain SQL: one statement for any size, no hooks
    app
      .db()
      .newQuery(
        `UPDATE answers SET
           questionTitle = COALESCE((SELECT title FROM questions WHERE questions.id = answers.question), ''),
           questionDescription = COALESCE((SELECT description FROM questions WHERE questions.id = answers.question), ''),
           questionKind = CASE
             WHEN EXISTS (SELECT 1 FROM video_questions WHERE video_questions.question = answers.question) THEN 'video'
             WHEN EXISTS (SELECT 1 FROM text_questions WHERE text_questions.question = answers.question) THEN 'text'
             ELSE '' END`,
      )
      .execute();

    for (const name of ["questions", "jobs"]) {
      const collection = app.findCollectionByNameOrId(name);
      collection.fields.add(new BoolField({ name: "archived" }));
      app.save(collection);
    }
  },
  (app) => {
    const answers = app.findCollectionByNameOrId("answers");
    for (const name of SNAPSHOT_FIELDS) answers.fields.removeByName(name);
    app.save(answers);
    for (const name of ["questions", "jobs"]) {
      const collection = app.findCollectionByNameOrId(name);
      collection.fields.removeByName("archived");
      app.save(collection);
    }
  },
);
