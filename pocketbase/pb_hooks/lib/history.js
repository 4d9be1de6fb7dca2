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

module.exports = { reviewedQuestions, onlyQuestionOf, answersOfQuestion, answersOfCandidate, answersOfJob, refusal };
