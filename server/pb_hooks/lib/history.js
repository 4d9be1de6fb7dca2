/// <reference path="../../../.cache/pocketbase/types.d.ts" />
// Counts the history hooks (history.pb.js) and the delete dialogs' route (GET /api/screenroom/deletion/...) decide by.

function count(app, sql, params) {
  const row = new DynamicModel({ n: 0 });
  app.db().newQuery(sql).bind(params).one(row);
  return row.n;
}

function answersOfQuestion(app, questionId) {
  if (!questionId) return 0;
  return count(app, "SELECT count(*) AS n FROM answers WHERE question = {:q}", { q: questionId });
}

function answersOfCandidate(app, candidateId) {
  return count(app, "SELECT count(*) AS n FROM answers WHERE candidate = {:c}", { c: candidateId });
}

function answersOfJob(app, jobId) {
  return count(
    app,
    "SELECT count(*) AS n FROM answers JOIN candidates ON candidates.id = answers.candidate WHERE candidates.job = {:j}",
    { j: jobId },
  );
}

function candidatesOfJob(app, jobId) {
  return count(app, "SELECT count(*) AS n FROM candidates WHERE job = {:j}", { j: jobId });
}

function videosOfJob(app, jobId) {
  return count(
    app,
    `SELECT count(*) AS n FROM video_answers JOIN answers ON answers.id = video_answers.answer
       JOIN candidates ON candidates.id = answers.candidate WHERE candidates.job = {:j}`,
    { j: jobId },
  );
}

function videosOfCandidate(app, candidateId) {
  return count(
    app,
    "SELECT count(*) AS n FROM video_answers JOIN answers ON answers.id = video_answers.answer WHERE answers.candidate = {:c}",
    { c: candidateId },
  );
}

/** The jobs that ask a question, by title: [{id, title, questions}] (the same company's, as rule 7 keeps them). */
function jobsAsking(app, questionId) {
  return app
    .findAllRecords("jobs", $dbx.exp("EXISTS (SELECT 1 FROM json_each(jobs.questions) WHERE json_each.value = {:q})", { q: questionId }))
    .sort((a, b) => (a.getString("title") < b.getString("title") ? -1 : a.getString("title") > b.getString("title") ? 1 : 0))
    .map((job) => ({ id: job.id, title: job.getString("title"), questions: job.getStringSlice("questions") }));
}

/** The title of a job whose only question is `questionId`, or "" when there is none. */
function onlyQuestionOf(app, questionId) {
  const row = new DynamicModel({ title: "" });
  try {
    app
      .db()
      .newQuery("SELECT title FROM jobs WHERE json_array_length(questions) = 1 AND json_extract(questions, '$[0]') = {:q} LIMIT 1")
      .bind({ q: questionId })
      .one(row);
  } catch (_) {
    return ""; // no rows
  }
  return row.title;
}

/**
 * The questions a candidate's review shows: the job's, in the job's order, then any the candidate answered that the
 * job no longer asks (removed from the job after they answered), in the order they were answered, so no answer ever
 * drops out of a review.
 */
function reviewedQuestions(app, job, answers) {
  const { jobQuestions } = require(`${__hooks}/lib/util.js`);
  const questions = jobQuestions(app, job);
  const inJob = {};
  for (const question of questions) inJob[question.id] = true;
  const missing = answers
    .slice()
    .sort((a, b) => (a.getString("created") < b.getString("created") ? -1 : 1))
    .map((answer) => answer.getString("question"))
    .filter((id) => !inJob[id]);
  if (!missing.length) return questions;
  const byId = {};
  for (const question of app.findRecordsByIds("questions", missing)) byId[question.id] = question;
  return questions.concat(missing.map((id) => byId[id]).filter(Boolean));
}

/** A 400 with a machine-readable code the SPA maps to its own words (data.delete.code). */
function refusal(code, message) {
  return new BadRequestError(message, { delete: new ValidationError(code, message) });
}

module.exports = { candidatesOfJob, videosOfJob, videosOfCandidate, jobsAsking, reviewedQuestions, onlyQuestionOf, answersOfQuestion, answersOfCandidate, answersOfJob, refusal };
