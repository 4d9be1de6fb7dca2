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
  if (!e.hasSuperuserAuth()) {
    e.record.set("transcript", "");
    e.record.set("transcriptStatus", "pending");
    e.record.set("transcriptAttempts", 0);
    e.record.set("durationSeconds", 0);
  }
  e.next();
}, "video_answers");
