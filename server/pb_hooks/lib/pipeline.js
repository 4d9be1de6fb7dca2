/// <reference path="../../../.cache/pocketbase/types.d.ts" />
// What the pipeline shows of each candidate, kept by the server (issue 15, migration 1732900000_review_workflow.js):
// its progress (status, answeredCount, startedAt, completedAt) from its answers and its job's questions, and its
// rating (averageRating, ratingsCount) from the managers' ratings. Each is one SQL UPDATE that derives the values
// from the stored rows, never from what a hook was told, so two writers racing (two answers, two ratings) both end
// with the same, right values: whichever UPDATE runs last reads every committed row. Inside a transaction (the
// answers route, a batch) pass its txApp: the candidate's row then changes with the answer, or not at all.

/** Written by the server only: the records API refuses them to everyone but superusers (review-workflow.pb.js). */
const PROGRESS_FIELDS = ["status", "answeredCount", "startedAt", "completedAt"];
const RATING_FIELDS = ["averageRating", "ratingsCount"];
const DECISION_FIELDS = ["decision", "decisionBy", "decisionAt"];
/** When the candidate agreed on the start screen (issue 17): POST /api/screenroom/interviews/{key}/consent only. */
const CONSENT_FIELDS = ["consentedAt"];
/** When the reminders and the completion e-mails went (issue 17, lib/candidate-mails.js): each stamp sends once. */
const MAIL_FIELDS = ["remindedEarlyAt", "remindedLateAt", "completionMailedAt"];
/** When the invitation was withdrawn (issue 17): stamped when a manager sets `withdrawn` (candidates.pb.js). */
const WITHDRAWAL_FIELDS = ["withdrawnAt"];
const SERVER_FIELDS = PROGRESS_FIELDS.concat(RATING_FIELDS, DECISION_FIELDS, CONSENT_FIELDS, MAIL_FIELDS, WITHDRAWAL_FIELDS);
/** What a manager grants one candidate (issue 17): the candidate sees only the resulting times and takes. */
const GRANT_FIELDS = ["extraTime", "extraTakes"];
/**
 * What a candidate presenting its key never sees of its own record (nor anyone but the job's company's managers);
 * hidden by pocketbase/candidate_enrich.go, which holds the same list.
 */
const MANAGERS_ONLY_FIELDS = RATING_FIELDS.concat(DECISION_FIELDS, GRANT_FIELDS);

const DECISIONS = ["advance", "hold", "reject"];

const NUMBER_FIELDS = ["answeredCount", "averageRating", "ratingsCount"];

/** A server field's value, comparable with ===: a number for the number fields, else the stored text ('' when empty). */
function fieldValue(record, field) {
  return NUMBER_FIELDS.indexOf(field) !== -1 ? record.getFloat(field) : record.getString(field);
}

/** The records API's refusal of a write to one of the server's fields: a 400 on that field. */
function serverFieldError(field) {
  const { fieldError } = require(`${__hooks}/lib/util.js`);
  const message =
    DECISION_FIELDS.indexOf(field) !== -1
      ? "The decision is set with POST /api/screenroom/candidates/{id}/decision."
      : CONSENT_FIELDS.indexOf(field) !== -1
        ? "Consent is given with POST /api/screenroom/interviews/{key}/consent."
        : "This field is kept by the server.";
  return fieldError(field, message, "validation_read_only");
}

/** PocketBase's datetime text (UTC, "2006-01-02 15:04:05.000Z"), as its date and autodate fields store it. */
function dbNow() {
  return new Date().toISOString().replace("T", " ");
}

// For each candidate the subquery selects: how many answers it has at all, how many of its job's current questions
// it answered, how many questions the job has, and when its first answer came. answers has a unique index on
// (candidate, question), so each count reads the candidate's few index entries; nothing scans.
// status: invited with no answer at all, completed once every question of the job is answered, else started.
// completedAt: kept while the candidate stays completed, now when it becomes completed, '' otherwise.
const PROGRESS_SQL = `
UPDATE candidates SET
  answeredCount = s.answered,
  startedAt = s.firstAt,
  status = CASE
    WHEN s.total = 0 THEN 'invited'
    WHEN s.questions > 0 AND s.answered >= s.questions THEN 'completed'
    ELSE 'started' END,
  completedAt = CASE
    WHEN s.total > 0 AND s.questions > 0 AND s.answered >= s.questions
    THEN (CASE WHEN candidates.status = 'completed' AND candidates.completedAt != '' THEN candidates.completedAt ELSE {:now} END)
    ELSE '' END,
  updated = {:now}
FROM (
  SELECT c.id AS id,
    (SELECT count(*) FROM answers a WHERE a.candidate = c.id) AS total,
    (SELECT count(*) FROM answers a WHERE a.candidate = c.id
       AND a.question IN (SELECT q.value FROM json_each(CASE WHEN json_valid(j.questions) THEN j.questions ELSE '[]' END) q)) AS answered,
    (CASE WHEN json_valid(j.questions) THEN json_array_length(j.questions) ELSE 0 END) AS questions,
    COALESCE((SELECT min(a.created) FROM answers a WHERE a.candidate = c.id), '') AS firstAt
  FROM candidates c JOIN jobs j ON j.id = c.job
  WHERE %WHERE%
) AS s
WHERE candidates.id = s.id
  AND (candidates.answeredCount IS NOT s.answered OR candidates.startedAt IS NOT s.firstAt
       OR candidates.status IS NOT (CASE WHEN s.total = 0 THEN 'invited'
                                         WHEN s.questions > 0 AND s.answered >= s.questions THEN 'completed'
                                         ELSE 'started' END))`;

/**
 * Runs the progress UPDATE for the candidates `where` selects and records the webhook events of the statuses it
 * changed (issue 18): candidate.started when one leaves invited, candidate.completed when one becomes completed (both,
 * in that order, for a one-question job). The statuses before and after are read in the same transaction as the
 * UPDATE (the caller's, or one of its own), so each change is seen, and announced, by exactly one writer; a candidate
 * that goes back (a question added to its job) and completes again is announced again.
 */
function recomputeProgress(app, where, params) {
  const work = (txApp) => {
    const statuses = () => {
      const rows = arrayOf(new DynamicModel({ id: "", status: "" }));
      txApp
        .db()
        .newQuery(`SELECT c.id AS id, COALESCE(c.status, '') AS status FROM candidates c WHERE ${where}`)
        .bind(params)
        .all(rows);
      const byId = {};
      for (const row of rows) byId[row.id] = row.status;
      return byId;
    };
    const before = statuses();
    txApp
      .db()
      .newQuery(PROGRESS_SQL.replace("%WHERE%", where))
      .bind(Object.assign({ now: dbNow() }, params))
      .execute();
    const after = statuses();
    for (const id of Object.keys(after)) {
      const was = before[id] || "invited";
      const now = after[id];
      if (now === was) continue;
      const { recordProgressEvent } = require(`${__hooks}/lib/webhooks.js`);
      if (was === "invited" && (now === "started" || now === "completed")) recordProgressEvent(txApp, "candidate.started", id);
      if (now === "completed") recordProgressEvent(txApp, "candidate.completed", id);
    }
  };
  if (app.isTransactional()) work(app);
  else app.runInTransaction(work);
}

/** Recomputes one candidate's progress from its answers (after an answer is stored or deleted). */
function recomputeCandidateProgress(app, candidateId) {
  if (!candidateId) return;
  recomputeProgress(app, "c.id = {:candidate}", { candidate: candidateId });
}

/** Recomputes the progress of every candidate of a job (after its questions changed): one UPDATE. */
function recomputeJobProgress(app, jobId) {
  if (!jobId) return;
  recomputeProgress(app, "c.job = {:job}", { job: jobId });
}

// averageRating: the average over the candidate's rated answers of each answer's average stars, to 2 decimals (0
// without a rating); ratingsCount: all its ratings. ratings has an index on candidate.
const RATING_SQL = `
UPDATE candidates SET
  ratingsCount = (SELECT count(*) FROM ratings r WHERE r.candidate = candidates.id),
  averageRating = COALESCE((SELECT round(avg(perAnswer.stars), 2)
                            FROM (SELECT avg(r.stars) AS stars FROM ratings r WHERE r.candidate = candidates.id GROUP BY r.answer) AS perAnswer), 0),
  updated = {:now}
WHERE id = {:candidate}`;

/** Recomputes one candidate's averageRating and ratingsCount from its ratings. */
function recomputeCandidateRating(app, candidateId) {
  if (!candidateId) return;
  app.db().newQuery(RATING_SQL).bind({ candidate: candidateId, now: dbNow() }).execute();
}

/**
 * Whether `userId` manages the company of job `jobId` (one indexed read: the job by id, its company by id, the
 * company's managers array).
 */
function managesJob(app, jobId, userId) {
  if (!jobId || !userId) return false;
  const row = new DynamicModel({ n: 0 });
  try {
    app
      .db()
      .newQuery(
        `SELECT count(*) AS n FROM jobs j JOIN companies c ON c.id = j.company
         WHERE j.id = {:job} AND EXISTS (SELECT 1 FROM json_each(c.managers) m WHERE m.value = {:user})`,
      )
      .bind({ job: jobId, user: userId })
      .one(row);
  } catch (_) {
    return false;
  }
  return row.n > 0;
}

module.exports = {
  PROGRESS_FIELDS,
  RATING_FIELDS,
  DECISION_FIELDS,
  SERVER_FIELDS,
  MANAGERS_ONLY_FIELDS,
  DECISIONS,
  fieldValue,
  serverFieldError,
  dbNow,
  recomputeCandidateProgress,
  recomputeJobProgress,
  recomputeCandidateRating,
  managesJob,
};
