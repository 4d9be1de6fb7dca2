/// <reference path="../../../.cache/pocketbase/types.d.ts" />
// Staged takes: a video take uploaded in parts while it is recorded (pb_hooks/takes.pb.js), then turned into an
// answer by POST /api/screenroom/answers with `staged` (pb_hooks/answers.pb.js, through lib/take-submit.js). A
// staged take is not an answer: nobody reads it, and one never submitted is removed by the hourly cron after a day.
// A take's row is live until it is retired: replaced by a newer take of its candidate and question, discarded
// (DELETE), or its question answered. A retired row stays as a tombstone (a late part is refused) until the cron.
//
// Who a take belongs to, whether it is live and how many bytes it was allowed: its row in the hidden collection
// `staged_takes` (migration 1732600000), decided in transactions. PocketBase runs every transaction on its one
// writer connection, one at a time, so "no row yet: insert it and retire the pair's other takes" and "the row is
// live: add this part's bytes if they fit" cannot interleave with each other. Disk I/O stays outside them.
//
// On disk: lib/take-files.js; the hourly sweep: lib/take-sweep.js.

const COLLECTION = "staged_takes";
const TAKE_ID = /^[a-z0-9]{15}$/;
const OFFSET = /^[0-9]{1,15}$/;
const { PART_MAX_BYTES } = require(`${__hooks}/lib/limits.js`);

const REFUSED = "You cannot record an answer to this question.";
const NOT_COMPLETE = "The take is not complete on the server.";
const REPLACED = "This take was replaced by a newer one.";
const SUBMITTED = "This answer has already been submitted.";

function validTakeId(value) {
  return typeof value === "string" && TAKE_ID.test(value);
}

/** The video file field's size limit, in bytes (PocketBase reads 0 as 5 MB). */
function maxTakeBytes(app) {
  const field = app.findCollectionByNameOrId("video_answers").fields.getByName("file");
  const max = field ? Number(field.maxSize) : 0;
  return max > 0 ? max : 5 * 1024 * 1024;
}

function tooBig(maxBytes) {
  return new BadRequestError(`This take is larger than ${Math.floor(maxBytes / (1024 * 1024))} MB, the most an answer may have.`);
}

/** 409: the take was retired (replaced by a newer take of the same candidate and question, or discarded). */
function retiredError() {
  return new ApiError(409, REPLACED);
}

/** 411: a part's bytes are reserved before they are read, so its length must be known. */
function lengthRequired() {
  return new ApiError(411, "A part needs a Content-Length header (a chunked body is not accepted).");
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
 * The live take a GET /api/screenroom/takes/{takeId}... request asks for, if the request presents its candidate's
 * key: {row, take: describeTake}; else 404, the same for every other reason.
 */
function openTake(e) {
  const { requestCandidate } = require(`${__hooks}/lib/util.js`);
  const notFound = () => new NotFoundError("The take was not found.");
  const takeId = e.request.pathValue("takeId");
  const presented = validTakeId(takeId) ? requestCandidate(e) : null;
  const row = presented ? findRow(e.app, takeId) : null;
  if (!row || !isLive(row, presented.id, row.getString("question"))) throw notFound();
  const described = describeTake(e.app, row);
  if (!described) throw notFound();
  return { row: row, take: described };
}

/**
 * The ownership and byte accounting of one part of `takeId`, in one transaction. With `claim` (a first part whose
 * access the caller checked: no row was there when it looked), a take without a row gets one, owned by
 * `owner` ({candidate, question}), its staging dir is made, and every other live take of the same candidate and
 * question is retired: one live take per candidate and question; and the take is counted (lib/progress.js), or
 * refused (403) when the question has no take left. (A row that another request inserted meanwhile is simply used:
 * the part goes on as a later part.) Then, for every part: the row must exist (else 409, or 400 once
 * the answer is stored), be `owner`'s (else 403) and not be retired (else 409); and its bytes plus `length` must stay
 * within `maxBytes` (else 400), which adds `length` to them. `marks` is what the device says of the take with this
 * part: {recordedMs (or null), finished}. Returns the ids of the takes it retired: their dirs are the caller's to
 * remove, after the commit.
 */
function reservePart(app, takeId, owner, length, maxBytes, claim, marks) {
  const { findByIdOrNull, findFirstOrNull, runRefusable } = require(`${__hooks}/lib/util.js`);
  // the take's own answer, or any answer of its candidate to its question: a question answered takes no more parts
  const answerExists = (txApp) =>
    !!findByIdOrNull(txApp, "answers", takeId) ||
    !!findFirstOrNull(txApp, "answers", "candidate = {:c} && question = {:q}", { c: owner.candidate, q: owner.question });
  const replaced = [];
  runRefusable(app, (txApp, refuse) => {
    let row = findRow(txApp, takeId);
    if (!row && claim) {
      if (answerExists(txApp)) refuse(new BadRequestError(SUBMITTED));
      require(`${__hooks}/lib/progress.js`).countTake(txApp, owner.candidate, owner.question, refuse);
      row = new Record(txApp.findCollectionByNameOrId(COLLECTION));
      row.set("take", takeId);
      // when the take started, on the server's clock (lib/clock.js): the deadline's grace window is judged from it
      row.set("created", require(`${__hooks}/lib/clock.js`).nowText(txApp));
      row.set("candidate", owner.candidate);
      row.set("question", owner.question);
      row.set("bytes", 0);
      row.set("retired", false);
      txApp.save(row);
      const others = txApp.findRecordsByFilter(
        COLLECTION,
        "candidate = {:candidate} && question = {:question} && retired = false && id != {:id}",
        "",
        0,
        0,
        { candidate: owner.candidate, question: owner.question, id: row.id },
      );
      for (const other of others) {
        other.set("retired", true);
        txApp.save(other);
        replaced.push(other.getString("take"));
      }
      require(`${__hooks}/lib/take-files.js`).makeTakeDir(txApp, takeId);
    }
    if (!row) refuse(answerExists(txApp) ? new BadRequestError(SUBMITTED) : retiredError());
    if (!belongsTo(row, owner.candidate, owner.question)) refuse(new ForbiddenError(REFUSED));
    if (row.getBool("retired")) refuse(retiredError());
    if (answerExists(txApp)) refuse(new BadRequestError(SUBMITTED));
    const bytes = row.getInt("bytes");
    if (bytes + length > maxBytes) refuse(tooBig(maxBytes));
    row.set("bytes", bytes + length);
    if (marks && marks.recordedMs !== null) row.set("recordedMs", Math.max(row.getInt("recordedMs"), marks.recordedMs));
    if (marks && marks.finished) row.set("finished", true);
    txApp.save(row);
  });
  return replaced;
}

/**
 * DELETE of a take by `candidate`: its row is retired (a tombstone), so a part sent late is refused (409)
 * instead of starting the take again. Returns whether there was a take (false: unknown, nothing to do); 403 when it
 * is another candidate's. The dir is the caller's to remove, after the commit.
 */
function retireTake(app, takeId, candidate) {
  const { runRefusable } = require(`${__hooks}/lib/util.js`);
  let found = false;
  runRefusable(app, (txApp, refuse) => {
    const row = findRow(txApp, takeId);
    if (!row) return;
    if (row.getString("candidate") !== candidate) refuse(new ForbiddenError("You cannot discard this take."));
    found = true;
    if (!row.getBool("retired")) {
      row.set("retired", true);
      txApp.save(row);
    }
  });
  return found;
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
  OFFSET,
  PART_MAX_BYTES,
  REFUSED,
  NOT_COMPLETE,
  SUBMITTED,
  COLLECTION,
  validTakeId,
  maxTakeBytes,
  tooBig,
  retiredError,
  lengthRequired,
  findRow,
  isLive,
  wasStaged,
  liveTakeOf,
  describeTake,
  openTake,
  reservePart,
  retireTake,
  retireTakesOf,
};
