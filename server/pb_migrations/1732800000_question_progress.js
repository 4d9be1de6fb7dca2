/// <reference path="../../.cache/pocketbase/types.d.ts" />
// Crash recovery and takes counted by the server (issues 22 and 17, decisions.md "Takes and time"):
// - question_progress: per candidate and question, how many takes the server has seen start (a take counts once
//   its first part arrived, or its whole file did) and when the question was first opened. Hidden (no API rules):
//   only the hooks read and write it, so a reload, the back button or a reopened link cannot reset it.
// - staged_takes gains what the candidate's device said of the take: `recordedMs`, the length recorded up to its
//   newest part, and `finished`, set by the part sent after 'Stop Recording'. A take not finished was interrupted
//   (the browser died while recording): it is offered again with its length, like a finished one.

migrate(
  (app) => {
    const candidates = app.findCollectionByNameOrId("candidates");
    const questions = app.findCollectionByNameOrId("questions");
    const progress = new Collection({
      type: "base",
      name: "question_progress",
      listRule: null,
      viewRule: null,
      createRule: null,
      updateRule: null,
      deleteRule: null,
      fields: [
        { name: "candidate", type: "relation", required: true, collectionId: candidates.id, maxSelect: 1, cascadeDelete: true },
        { name: "question", type: "relation", required: true, collectionId: questions.id, maxSelect: 1, cascadeDelete: true },
        { name: "takesStarted", type: "number", min: 0, onlyInt: true },
        { name: "openedAt", type: "date" },
        { name: "created", type: "autodate", onCreate: true, onUpdate: false },
        { name: "updated", type: "autodate", onCreate: true, onUpdate: true },
      ],
      indexes: ["CREATE UNIQUE INDEX idx_question_progress_pair ON question_progress (candidate, question)"],
    });
    app.save(progress);

    const staged = app.findCollectionByNameOrId("staged_takes");
    staged.fields.add(new NumberField({ name: "recordedMs", min: 0, onlyInt: true }));
    staged.fields.add(new BoolField({ name: "finished" }));
    app.save(staged);
  },
  (app) => {
    app.delete(app.findCollectionByNameOrId("question_progress"));
    const staged = app.findCollectionByNameOrId("staged_takes");
    staged.fields.removeByName("recordedMs");
    staged.fields.removeByName("finished");
    app.save(staged);
  },
);
