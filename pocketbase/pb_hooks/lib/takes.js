/// <reference path="../../../.cache/pocketbase/types.d.ts" />
// Staged takes: a video take uploaded in parts while it is recorded (pb_hooks/takes.pb.js), then turned into an
// answer by POST /api/screenroom/answers with `take` (pb_hooks/answers.pb.js). A staged take is not an answer:
// nobody reads it, and one never submitted is removed by the hourly cron after a day.
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

/** 409: the take was replaced by a newer take of the same candidate and question, or discarded (DELETE). */
function replacedError() {
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

/** Whether `row` is a live take (not replaced or discarded) of `candidate` for `question`. */
function isLive(row, candidate, question) {
  return !!row && !row.getBool("replaced") && row.getString("candidate") === candidate && row.getString("question") === question;
}

/**
 * The ownership and byte accounting of one part of `takeId`, in one transaction. With `claim` (a first part whose
 * access the caller checked: no row was there when it looked), a take without a row gets one, owned by
 * `owner` ({candidate, question}), its staging dir is made, and every other live take of the same candidate and
 * question is marked replaced: one live take per candidate and question. (A row that another request inserted
 * meanwhile is simply used: the part goes on as a later part.) Then, for every part: the row must exist (else 409, or
 * 400 once the answer is stored), be `owner`'s (else 403) and not be replaced (else 409); and its bytes plus `length`
 * must stay within `maxBytes` (else 400), which adds `length` to them. Returns the ids of the takes it replaced: their
 * dirs are the caller's to remove, after the commit.
 */
function reservePart(app, takeId, owner, length, maxBytes, claim) {
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
      row = new Record(txApp.findCollectionByNameOrId(COLLECTION));
      row.set("take", takeId);
      row.set("candidate", owner.candidate);
      row.set("question", owner.question);
      row.set("bytes", 0);
      row.set("replaced", false);
      txApp.save(row);
      const others = txApp.findRecordsByFilter(
        COLLECTION,
        "candidate = {:candidate} && question = {:question} && replaced = false && id != {:id}",
        "",
        0,
        0,
        { candidate: owner.candidate, question: owner.question, id: row.id },
      );
      for (const other of others) {
        other.set("replaced", true);
        txApp.save(other);
        replaced.push(other.getString("take"));
      }
      const files = require(`${__hooks}/lib/take-files.js`);
      $os.mkdirAll(files.takeDir(txApp, takeId), files.DIR_MODE);
    }
    if (!row) refuse(answerExists(txApp) ? new BadRequestError(SUBMITTED) : replacedError());
    if (row.getString("candidate") !== owner.candidate || row.getString("question") !== owner.question) {
      refuse(new ForbiddenError(REFUSED));
    }
    if (row.getBool("replaced")) refuse(replacedError());
    if (answerExists(txApp)) refuse(new BadRequestError(SUBMITTED));
    const bytes = row.getInt("bytes");
    if (bytes + length > maxBytes) refuse(tooBig(maxBytes));
    row.set("bytes", bytes + length);
    txApp.save(row);
  });
  return replaced;
}

/**
 * DELETE of a take by `candidate`: its row becomes a tombstone (replaced), so a part sent late is refused (409)
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
    if (!row.getBool("replaced")) {
      row.set("replaced", true);
      txApp.save(row);
    }
  });
  return found;
}

/**
 * After an answer with id `takeId` of `candidate` was stored: its staged take (row and dir, the joined copy with
 * it), if it is that candidate's, is of no more use. Both are tried; the first failure is thrown after. Returns
 * whether there was one.
 */
function forgetTake(app, takeId, candidate) {
  const row = findRow(app, takeId);
  if (!row || row.getString("candidate") !== candidate) return false;
  let failure = null;
  try {
    require(`${__hooks}/lib/take-files.js`).removeTake(app, takeId);
  } catch (err) {
    failure = err;
  }
  try {
    app.delete(row);
  } catch (err) {
    failure = failure || err;
  }
  if (failure) throw failure;
  return true;
}

/**
 * After `candidate` answered `question` (whatever the way): every other take of that question is retired (its row a
 * tombstone, so a late part is refused) and its dir removed. Returns the retired take ids.
 */
function retireTakesOf(app, candidate, question) {
  const retired = [];
  app.runInTransaction((txApp) => {
    const rows = txApp.findRecordsByFilter(COLLECTION, "candidate = {:c} && question = {:q} && replaced = false", "", 0, 0, {
      c: candidate,
      q: question,
    });
    for (const row of rows) {
      row.set("replaced", true);
      txApp.save(row);
      retired.push(row.getString("take"));
    }
  });
  require(`${__hooks}/lib/take-files.js`).removeTakesQuietly(app, retired);
  return retired;
}

/**
 * One submit of a take at a time: joining a take copies all its bytes, and parallel submits of one take each made
 * their own copy (eight of a 30 MB take peaked at 270 MB). Returns a release function, or null when another submit
 * of the take is running (the caller answers 409; the client's retry comes after it).
 */
function lockSubmit(app, takeId) {
  const key = "screenroomSubmit:" + takeId;
  const mine = $security.randomString(16);
  if (app.store().getOrSet(key, () => mine) !== mine) return null;
  return () => app.store().remove(key);
}

/**
 * Joins a live staged take of `candidate` for `question` into one file `fileName` for its answer: {file, cleanup} (see
 * lib/take-files.js assembleParts), or null when the take has no live row of that candidate and question or its parts
 * do not make exactly `size` bytes. (The caller checks the row again inside the transaction that stores the answer.)
 */
function assembleTake(app, takeId, candidate, question, size, fileName) {
  if (!isLive(findRow(app, takeId), candidate, question)) return null;
  return require(`${__hooks}/lib/take-files.js`).assembleParts(app, takeId, size, fileName);
}

module.exports = {
  retireTakesOf,
  lockSubmit,
  OFFSET,
  PART_MAX_BYTES,
  REFUSED,
  NOT_COMPLETE,
  SUBMITTED,
  COLLECTION,
  validTakeId,
  maxTakeBytes,
  tooBig,
  replacedError,
  lengthRequired,
  findRow,
  isLive,
  reservePart,
  retireTake,
  forgetTake,
  assembleTake,
};
