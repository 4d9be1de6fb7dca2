/// <reference path="../../../.cache/pocketbase/types.d.ts" />
// Staged takes: a video take uploaded in parts while it is recorded (Go: server/internal/takes, which owns the parts,
// the recovery and the sweep), then turned into an answer by POST /api/screenroom/answers with `staged`
// (pb_hooks/answers.pb.js, through lib/take-submit.js). This file keeps what the remaining JS reads of a take's row;
// internal/takes/take_rows.go is the same in Go (FindRow, IsLive, WasStaged, LiveTakeOf, DescribeTake,
// RetireTakesOf) for the answers route's port.
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

/** The candidate's live take of the question (its staged_takes row), or null. */
function liveTakeOf(app, candidate, question) {
  const { findFirstOrNull } = require(`${__hooks}/lib/util.js`);
  return findFirstOrNull(app, COLLECTION, "candidate = {:c} && question = {:q} && retired = false", { c: candidate, q: question });
}

/**
 * What the candidate's device needs to offer a take again (after a reload, a crash, or on another device): null
 * when the take has no bytes from 0 on the server. `bytes` counts the parts contiguous from offset 0 (a take cut
 * off mid-recording may have a later part without the one before it); `parts` are those parts.
 */
function describeTake(app, row) {
  const files = require(`${__hooks}/lib/take-files.js`);
  const parts = [];
  let bytes = 0;
  for (const part of files.listParts(files.takeDir(app, row.getString("take")))) {
    if (part.offset !== bytes) break;
    parts.push(part);
    bytes += part.size;
  }
  if (!bytes) return null;
  return {
    id: row.getString("take"),
    bytes: bytes,
    parts: parts,
    recordedMs: row.getInt("recordedMs"),
    finished: row.getBool("finished"),
    savedAt: row.getString("updated"),
  };
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
  liveTakeOf,
  describeTake,
  retireTakesOf,
};
