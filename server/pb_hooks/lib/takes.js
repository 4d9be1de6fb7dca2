/// <reference path="../../../.cache/pocketbase/types.d.ts" />
// Staged takes: a video take uploaded in parts while it is recorded (Go: server/internal/takes, which owns the parts,
// the recovery and the sweep), then turned into an answer by POST /api/screenroom/answers with `staged`
// (pb_hooks/answers.pb.js, through lib/take-submit.js). This file keeps what the remaining JS reads of a take's row;
// internal/takes/take_rows.go is the same in Go (FindRow, IsLive, WasStaged, RetireTakesOf) for the answers
// route's port.
// A take's row is live until it is retired: replaced by a newer take of its candidate and question, discarded
// (DELETE), or its question answered. A retired row stays as a tombstone (a late part is refused) until the sweep.
// On disk: lib/take-files.js.

const COLLECTION = "staged_takes";
const TAKE_ID = /^[a-z0-9]{15}$/;

const NOT_COMPLETE = "The take is not complete on the server.";

function validTakeId(value) {
  return typeof value === "string" && TAKE_ID.test(value);
}

/** The take's row in staged_takes, or null. */
function findRow(app, takeId) {
  try {
    return app.findFirstRecordByData(COLLECTION, "take", takeId);
  } catch (_) {
    return null;
  }
}

/** Whether `row` is the take of `candidate` for `question` (live or not). */
function belongsTo(row, candidate, question) {
  return row.getString("candidate") === candidate && row.getString("question") === question;
}

/** Whether `row` is a live (not retired) take of `candidate` for `question`. */
function isLive(row, candidate, question) {
  return !!row && !row.getBool("retired") && belongsTo(row, candidate, question);
}

/** Whether `takeId` was staged (live or retired since) as a take of `candidate` for `question`: it was counted. */
function wasStaged(app, takeId, candidate, question) {
  const row = findRow(app, takeId);
  return !!row && belongsTo(row, candidate, question);
}

/**
 * After `candidate` answered `question` (whatever the way): every other take of that question is retired (its row a
 * tombstone, so a late part is refused) and its dir removed. Returns the retired take ids.
 */
function retireTakesOf(app, candidate, question) {
  const retired = [];
  require(`${__hooks}/lib/util.js`).runRefusable(app, (txApp) => {
    const rows = txApp.findRecordsByFilter(COLLECTION, "candidate = {:c} && question = {:q} && retired = false", "", 0, 0, {
      c: candidate,
      q: question,
    });
    for (const row of rows) {
      row.set("retired", true);
      txApp.save(row);
      retired.push(row.getString("take"));
    }
  });
  require(`${__hooks}/lib/take-files.js`).removeTakesQuietly(app, retired);
  return retired;
}

module.exports = {
  NOT_COMPLETE,
  validTakeId,
  findRow,
  isLive,
  wasStaged,
  retireTakesOf,
};
