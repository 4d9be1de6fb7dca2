/// <reference path="../../.cache/pocketbase/types.d.ts" />
// GET /api/screenroom/reviews/{candidateId}: the candidate review's one read, for the managers of the candidate's
// company. The same record, in the same shape, as the records API's
// candidates/{id}?expand=job.questions.video_questions_via_question,job.questions.text_questions_via_question,
// answers_via_candidate.video_answers_via_answer,answers_via_candidate.text_answers_via_answer
//
// Why a route: through the records API every expanded question and kind record runs its rule, whose candidate
// clause joins the job back-relations across all of the company's candidates even for a manager: at the
// benchmark's size that was most of the review's time. Here access is decided once, on the candidate record, with
// the candidates collection's list rule (managers of the job's company, decisions.md "Access model"); everything
// returned hangs off that record (its job, the job's questions and their kinds, its answers and their kinds), all
// of which the same managers may view. Hidden fields stay hidden (records serialise their public export).

routerAdd("GET", "/api/screenroom/reviews/{id}", (e) => {
  const notFound = () => new NotFoundError("The requested resource wasn't found.");
  const info = e.requestInfo();
  if (!info.auth) throw notFound();

  let candidate;
  try {
    candidate = e.app.findRecordById("candidates", e.request.pathValue("id"));
  } catch (_) {
    throw notFound();
  }
  // the list rule, not the view rule: the view rule also lets the candidate itself read its record
  if (!e.app.canAccessRecord(candidate, info, candidate.collection().listRule)) throw notFound();

  const { kindsOf } = require(`${__hooks}/lib/util.js`);
  const job = e.app.findRecordById("jobs", candidate.getString("job"));
  const answers = e.app.findAllRecords("answers", $dbx.hashExp({ candidate: candidate.id }));
  // in the job's order, as the records API expands a multiple relation, then any question the candidate answered
  // that the job no longer asks (issue 16: history stays true); each answer carries the question as it was asked
  const questions = require(`${__hooks}/lib/history.js`).reviewedQuestions(e.app, job, answers);
  const questionKinds = kindsOf(e.app, ["video_questions", "text_questions"], "question", questions.map((q) => q.id));
  for (const question of questions) {
    const kind = questionKinds[question.id];
    if (kind) question.setExpand({ [`${kind.name}_via_question`]: kind.record });
  }
  job.setExpand({ questions: questions });

  const answerKinds = kindsOf(e.app, ["video_answers", "text_answers"], "answer", answers.map((a) => a.id));
  for (const answer of answers) {
    const kind = answerKinds[answer.id];
    if (kind) answer.setExpand({ [`${kind.name}_via_answer`]: kind.record });
  }

  candidate.setExpand({ job: job, answers_via_candidate: answers });
  return e.json(200, candidate);
});
