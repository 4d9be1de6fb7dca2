/// <reference path="../../.cache/pocketbase/types.d.ts" />
// Staged takes (pb_hooks/takes.pb.js, lib/takes.js): who a take staged in parts belongs to, whether it is still its
// candidate's live take of the question, and how many bytes it has been allowed so far. The hooks decide all of it
// in transactions on this collection (PocketBase runs them one at a time), which files alone could not: two takes'
// first parts racing each other both won, and a take's concurrent parts each saw the others' bytes as not there yet.
// Hidden: no API rules at all (superusers only); only the hooks read and write it. The parts themselves stay files
// under {pb_data}/screenroom_takes/{take}/.

migrate(
  (app) => {
    const candidates = app.findCollectionByNameOrId("candidates");
    const questions = app.findCollectionByNameOrId("questions");
    const stagedTakes = new Collection({
      type: "base",
      name: "staged_takes",
      listRule: null,
      viewRule: null,
      createRule: null,
      updateRule: null,
      deleteRule: null,
      fields: [
        // the id the answer will get, and the name of the take's staging dir
        { name: "take", type: "text", required: true, min: 15, max: 15, pattern: "^[a-z0-9]{15}$" },
        { name: "candidate", type: "relation", required: true, collectionId: candidates.id, maxSelect: 1, cascadeDelete: true },
        { name: "question", type: "relation", required: true, collectionId: questions.id, maxSelect: 1, cascadeDelete: true },
        // every byte of every part ever accepted for the take (retries included): at most the video field's maxSize
        { name: "bytes", type: "number", min: 0, onlyInt: true },
        // a newer take of the same candidate and question, or a DELETE, ended this one: its parts are refused
        { name: "replaced", type: "bool" },
        { name: "created", type: "autodate", onCreate: true, onUpdate: false },
        { name: "updated", type: "autodate", onCreate: true, onUpdate: true },
      ],
      indexes: [
        "CREATE UNIQUE INDEX idx_staged_takes_take ON staged_takes (take)",
        "CREATE INDEX idx_staged_takes_candidate_question ON staged_takes (candidate, question)",
      ],
    });
    app.save(stagedTakes);
  },
  (app) => {
    app.delete(app.findCollectionByNameOrId("staged_takes"));
  },
);
