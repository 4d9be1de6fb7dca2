/// <reference path="../../../.cache/pocketbase/types.d.ts" />
// The JS twin of internal/interview/progress.go, kept only for the JS hooks still calling it (lib/takes.js,
// answers.pb.js, lib/interview-rules.js); change both together until they go.
// Takes counted by the server (migration 1732800000, decisions.md "Takes and time"): a take counts once the server
// has its first part (lib/takes.js reservePart), or its whole file when none of it was staged (answers.pb.js). A
// recovered take is the take it was: submitting it counts nothing new. Decided inside the transaction that starts
// the take, so parallel first parts cannot both take the last one.

const COLLECTION = "question_progress";
const NO_TAKES_LEFT = "You have used all your takes for this question.";

/** The candidate's progress row for the question, or null. */
function findProgress(app, candidate, question) {
  const { findFirstOrNull } = require(`${__hooks}/lib/util.js`);
  return findFirstOrNull(app, COLLECTION, "candidate = {:c} && question = {:q}", { c: candidate, q: question });
}

/**
 * The takes the candidate (id) has for a question: a video question's `takes` (at least 1) plus the candidate's
 * extraTakes (issue 17, lib/interview-rules.js); 1 for anything else.
 */
function maxTakesOf(app, question, candidate) {
  const { findByIdOrNull, findFirstOrNull } = require(`${__hooks}/lib/util.js`);
  const kind = findFirstOrNull(app, "video_questions", "question = {:q}", { q: question });
  const record = findByIdOrNull(app, "candidates", candidate);
  if (!record) return kind ? Math.max(1, kind.getInt("takes")) : 1;
  return require(`${__hooks}/lib/interview-rules.js`).maxTakes(kind, record);
}

/**
 * Inside a transaction (runRefusable's txApp and refuse): counts a new take of the question for the candidate, or
 * refuses it (403) when every take the question allows was used.
 */
function countTake(txApp, candidate, question, refuse) {
  let row = findProgress(txApp, candidate, question);
  if (!row) {
    row = new Record(txApp.findCollectionByNameOrId(COLLECTION));
    row.set("candidate", candidate);
    row.set("question", question);
    row.set("takesStarted", 0);
  }
  const used = row.getInt("takesStarted");
  if (used >= maxTakesOf(txApp, question, candidate)) refuse(new ForbiddenError(NO_TAKES_LEFT));
  row.set("takesStarted", used + 1);
  txApp.save(row);
}

module.exports = { COLLECTION, NO_TAKES_LEFT, findProgress, maxTakesOf, countTake };
