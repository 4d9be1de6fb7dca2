/// <reference path="../../.cache/pocketbase/types.d.ts" />
// Rule 8: a question has one kind. A kind record is refused while the other kind's record exists, so
// a change of kind is a delete of the old record and a create of the new one (one batch).

onRecordValidate((e) => {
  const { fieldError, findFirstOrNull } = require(`${__hooks}/lib/util.js`);
  const other = e.record.collection().name === "video_questions" ? "text_questions" : "video_questions";
  const questionId = e.record.getString("question");
  if (questionId && findFirstOrNull(e.app, other, "question = {:q}", { q: questionId })) {
    throw fieldError("question", "This question already has a kind: remove it first.");
  }
  const same = findFirstOrNull(e.app, e.record.collection().name, "question = {:q} && id != {:id}", {
    q: questionId,
    id: e.record.id,
  });
  if (same) throw fieldError("question", "This question already has a kind: remove it first.", "validation_not_unique");
  e.next();
}, "video_questions", "text_questions");

// Issue 17: a video question gives this many seconds to read and prepare before recording starts by itself; one
// created without saying (an older client, a script) gets the default, as existing questions did (migration
// 1733000000). A body that sends `preparation` (0 included) keeps it. The batch API runs this hook per item.
onRecordCreateRequest((e) => {
  const body = e.requestInfo().body || {};
  if (!Object.prototype.hasOwnProperty.call(body, "preparation")) e.record.set("preparation", 30);
  e.next();
}, "video_questions");
