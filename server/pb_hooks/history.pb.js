/// <reference path="../../.cache/pocketbase/types.d.ts" />
// Issue 16 point 3: history stays true (schema: pb_migrations/1733050000_answer_snapshots_archive.js).
// - Every answer keeps the question as its candidate saw it (questionTitle, questionDescription, questionKind), set
//   here from the question at the moment the answer is stored, however it is stored (the answers route, a
//   superuser's records or batch create, seeds): onRecordCreate runs for every save of a new record. What a client
//   sent for these fields is overwritten.
// - A question's kind never changes once it has answers: the kind record (video_questions / text_questions) of an
//   answered question is not deleted through the API, so the edit form's delete-and-create batch is refused, with a
//   message on the form's `kind` field.
// - Deleting never takes answers silently: a question with answers is archived instead (refused); a job or a
//   candidate with answers is deleted only when the request says so (`?deleteAnswers=true`, after the manager
//   confirmed it in the dialog that says what goes). Who may delete is the collections' delete rules (managers of
//   the company); files go with their records (PocketBase removes a deleted record's storage folder, cascades
//   included), and a staged take's parts, kept outside PocketBase's storage, go with its row below.

onRecordCreate((e) => {
  const { findByIdOrNull, questionKind } = require(`${__hooks}/lib/util.js`);
  const question = findByIdOrNull(e.app, "questions", e.record.getString("question"));
  e.record.set("questionTitle", question ? question.getString("title") : "");
  e.record.set("questionDescription", question ? question.getString("description") : "");
  e.record.set("questionKind", question ? questionKind(e.app, question.id) : "");
  e.next();
}, "answers");

onRecordDeleteRequest((e) => {
  const { fieldError } = require(`${__hooks}/lib/util.js`);
  const { answersOfQuestion } = require(`${__hooks}/lib/history.js`);
  if (answersOfQuestion(e.app, e.record.getString("question")) > 0) {
    throw fieldError(
      "kind",
      "Candidates have answered this question, so its kind can't change. Create a new question of the other kind instead.",
      "question_has_answers",
    );
  }
  e.next();
}, "video_questions", "text_questions");

onRecordDeleteRequest((e) => {
  const { answersOfQuestion, onlyQuestionOf, refusal } = require(`${__hooks}/lib/history.js`);
  if (answersOfQuestion(e.app, e.record.id) > 0) {
    throw refusal("question_has_answers", "Candidates have answered this question: archive it instead, so their reviews keep it.");
  }
  // PocketBase would refuse with its own words: a job needs at least one question
  const only = onlyQuestionOf(e.app, e.record.id);
  if (only) {
    throw refusal("only_question_of_job", `This is the only question of the job "${only}": add another question to that job first.`);
  }
  e.next();
}, "questions");

onRecordDeleteRequest((e) => {
  const { answersOfJob, answersOfCandidate, refusal } = require(`${__hooks}/lib/history.js`);
  const isJob = e.record.collection().name === "jobs";
  const count = isJob ? answersOfJob(e.app, e.record.id) : answersOfCandidate(e.app, e.record.id);
  if (count > 0 && (e.requestInfo().query || {}).deleteAnswers !== "true") {
    throw refusal(
      "answers_not_confirmed",
      isJob
        ? "This job has answers: archive it, or confirm that its answers are deleted too."
        : "This candidate has answers: confirm that they are deleted too.",
    );
  }
  e.next();
}, "jobs", "candidates");

// A staged take's parts live outside PocketBase's file storage ({dataDir}/screenroom_takes/{take}): when its row goes
// (its candidate or question deleted, cascading), they go too, not only at the next sweep.
onRecordAfterDeleteSuccess((e) => {
  require(`${__hooks}/lib/take-files.js`).removeTakesQuietly(e.app, [e.record.getString("take")]);
  e.next();
}, "staged_takes");

// GET /api/screenroom/deletions/{collection}/{id} (collection: questions, jobs or candidates): what deleting the
// record would take with it, for the delete dialogs to say plainly (the SPA cannot count through relations itself:
// client filters may not follow relation paths, pocketbase/query_guard.go). Only for who may delete the record (the
// collection's delete rule: the company's managers); anyone else, and an unknown record, gets the same 404.
// 200 questions: {answers, jobs: [{id, title, questions}]}; jobs: {candidates, answers, videos}; candidates:
// {answers, videos}.
routerAdd("GET", "/api/screenroom/deletions/{collection}/{id}", (e) => {
  const { findByIdOrNull } = require(`${__hooks}/lib/util.js`);
  const history = require(`${__hooks}/lib/history.js`);
  const notFound = () => new NotFoundError("The requested resource wasn't found.");
  const name = e.request.pathValue("collection");
  if (["questions", "jobs", "candidates"].indexOf(name) === -1) throw notFound();
  const info = e.requestInfo();
  if (!info.auth) throw notFound();
  const record = findByIdOrNull(e.app, name, e.request.pathValue("id"));
  if (!record || !e.app.canAccessRecord(record, info, record.collection().deleteRule)) throw notFound();

  e.response.header().set("Cache-Control", "no-store");
  if (name === "questions") {
    return e.json(200, { answers: history.answersOfQuestion(e.app, record.id), jobs: history.jobsAsking(e.app, record.id) });
  }
  if (name === "jobs") {
    return e.json(200, {
      candidates: history.candidatesOfJob(e.app, record.id),
      answers: history.answersOfJob(e.app, record.id),
      videos: history.videosOfJob(e.app, record.id),
    });
  }
  return e.json(200, { answers: history.answersOfCandidate(e.app, record.id), videos: history.videosOfCandidate(e.app, record.id) });
});
