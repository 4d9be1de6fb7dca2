/// <reference path="../../.cache/pocketbase/types.d.ts" />
// Rule 9: an answer's kind matches its question's kind, one kind record per answer; a new video
// answer waits for the media worker (transcriptStatus pending). (That a candidate answers only its own
// job's questions, once, is the create rule plus the unique index on (candidate, question).)

onRecordValidate((e) => {
  const { fieldError, findFirstOrNull } = require(`${__hooks}/lib/util.js`);
  const existing = findFirstOrNull(e.app, "answers", "candidate = {:c} && question = {:q} && id != {:id}", {
    c: e.record.getString("candidate"),
    q: e.record.getString("question"),
    id: e.record.id,
  });
  if (existing) throw fieldError("question", "This question has already been answered", "validation_not_unique");
  e.next();
}, "answers");

onRecordValidate((e) => {
  const { fieldError, findByIdOrNull, findFirstOrNull, questionKind } = require(`${__hooks}/lib/util.js`);
  const name = e.record.collection().name;
  const kind = name === "video_answers" ? "video" : "text";
  const answer = findByIdOrNull(e.app, "answers", e.record.getString("answer"));
  if (answer) {
    if (questionKind(e.app, answer.getString("question")) !== kind) {
      throw fieldError("answer", `This question does not take a ${kind} answer.`);
    }
    const other = kind === "video" ? "text_answers" : "video_answers";
    const sameOrOther =
      findFirstOrNull(e.app, other, "answer = {:a}", { a: answer.id }) ||
      findFirstOrNull(e.app, name, "answer = {:a} && id != {:id}", { a: answer.id, id: e.record.id });
    if (sameOrOther) throw fieldError("answer", "This question has already been answered", "validation_not_unique");
  }
  e.next();
}, "video_answers", "text_answers");

onRecordCreate((e) => {
  const files = e.record.get("file");
  const file = Array.isArray(files) ? files[0] : files;
  if (!e.record.getString("transcriptStatus")) e.record.set("transcriptStatus", "pending");
  if (!e.record.getString("mimeType") && file && file.name) {
    e.record.set("mimeType", /\.mp4$/i.test(file.name) ? "video/mp4" : "video/webm");
  }
  e.next();
}, "video_answers");

// Only the media worker (a superuser) writes what it derives from the file.
onRecordCreateRequest((e) => {
  const { clearDerivedVideoFields } = require(`${__hooks}/lib/util.js`);
  if (!e.hasSuperuserAuth()) clearDerivedVideoFields(e.record);
  e.next();
}, "video_answers");

// POST /api/screenroom/answers (multipart or JSON): id (client-made), candidate, question, and either `file` (a video
// answer) or `content` (a text answer). Creates the answer and its kind record in one transaction, so a refused kind
// record leaves no answer behind (rule 9), in one plain request: the batch API re-encodes every file it carries, which
// made a 20 MB answer take three times as long as a plain upload (issue 8).
// Access is exactly the collections' create rules, checked on each record inside the transaction. Errors have the
// collection API's shape: 400 with data.{field}.message. A retry with the same id is refused (the id exists), never a
// second answer. 200 {answer, kind: "video_answers" | "text_answers", record}.
routerAdd(
  "POST",
  "/api/screenroom/answers",
  (e) => {
    const { clearDerivedVideoFields, questionKind } = require(`${__hooks}/lib/util.js`);
    const info = e.requestInfo();
    const body = info.body || {};
    const text = (name) => (typeof body[name] === "string" ? body[name] : "");

    let files = [];
    const contentType = String(e.request.header.get("Content-Type") || "");
    if (contentType.toLowerCase().indexOf("multipart/form-data") === 0) {
      try {
        files = e.findUploadedFiles("file");
      } catch (err) {
        // No file part is a text answer (or a video answer missing its file, which validation reports).
        if (String(err).indexOf("no such file") === -1) throw err;
      }
    }
    const hasContent = Object.prototype.hasOwnProperty.call(body, "content");
    if (files.length && hasContent) throw new BadRequestError("Send either a file or content, not both.");
    if (files.length > 1) throw new BadRequestError("Send one file.");

    const kindName = files.length
      ? "video_answers"
      : hasContent
        ? "text_answers"
        : questionKind(e.app, text("question")) === "video"
          ? "video_answers"
          : "text_answers";

    let answer = null;
    let kind = null;
    e.app.runInTransaction((txApp) => {
      const answers = txApp.findCollectionByNameOrId("answers");
      answer = new Record(answers);
      if (text("id")) answer.set("id", text("id"));
      answer.set("candidate", text("candidate"));
      answer.set("question", text("question"));
      txApp.save(answer);
      // The create rule sees the saved record, inside the transaction: a refusal rolls it back before any file is stored.
      if (!txApp.canAccessRecord(answer, info, answers.createRule)) throw new BadRequestError("Failed to create record.");

      const kindCollection = txApp.findCollectionByNameOrId(kindName);
      kind = new Record(kindCollection);
      kind.set("answer", answer.id);
      if (kindName === "video_answers") {
        if (files.length) kind.set("file", files[0]);
        // What onRecordCreateRequest does for the collection API (a custom route does not trigger it).
        clearDerivedVideoFields(kind);
      } else {
        kind.set("content", text("content"));
      }
      txApp.save(kind);
      if (!txApp.canAccessRecord(kind, info, kindCollection.createRule)) throw new BadRequestError("Failed to create record.");
    });
    return e.json(200, { answer: answer, kind: kindName, record: kind });
  },
  // The collection API allows 32 MB plus the file fields' sizes: the same for the 150 MB video field.
  $apis.bodyLimit(32 * 1024 * 1024 + 150 * 1024 * 1024),
);
