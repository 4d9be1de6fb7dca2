/// <reference path="../../../.cache/pocketbase/types.d.ts" />
// Staged takes: a video take uploaded in parts while it is recorded (pb_hooks/takes.pb.js), then turned into an
// answer by POST /api/screenroom/answers with `staged` (pb_hooks/answers.pb.js, through stagedAnswerFile below). A
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

/**
 * The ownership and byte accounting of one part of `takeId`, in one transaction. With `claim` (a first part whose
 * access the caller checked: no row was there when it looked), a take without a row gets one, owned by
 * `owner` ({candidate, question}), its staging dir is made, and every other live take of the same candidate and
 * question is retired: one live take per candidate and question. (A row that another request inserted meanwhile is
 * simply used: the part goes on as a later part.) Then, for every part: the row must exist (else 409, or 400 once
 * the answer is stored), be `owner`'s (else 403) and not be retired (else 409); and its bytes plus `length` must stay
 * within `maxBytes` (else 400), which adds `length` to them. Returns the ids of the takes it retired: their dirs are
 * the caller's to remove, after the commit.
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
      const files = require(`${__hooks}/lib/take-files.js`);
      $os.mkdirAll(files.takeDir(txApp, takeId), files.DIR_MODE);
    }
    if (!row) refuse(answerExists(txApp) ? new BadRequestError(SUBMITTED) : retiredError());
    if (!belongsTo(row, owner.candidate, owner.question)) refuse(new ForbiddenError(REFUSED));
    if (row.getBool("retired")) refuse(retiredError());
    if (answerExists(txApp)) refuse(new BadRequestError(SUBMITTED));
    const bytes = row.getInt("bytes");
    if (bytes + length > maxBytes) refuse(tooBig(maxBytes));
    row.set("bytes", bytes + length);
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
  app.runInTransaction((txApp) => {
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

/** A request's whole number (JSON number, or digits in a form), or null. */
function wholeNumber(value) {
  if (typeof value === "string" && /^[0-9]{1,15}$/.test(value)) return parseInt(value, 10);
  return typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : null;
}

/**
 * The one way a staged take becomes an answer's file (POST /api/screenroom/answers with `staged`). `request`:
 * {id, candidate, question, size, fileName} of the answer; the take is the one staged under the answer's id. Refuses
 * (400) a size that is not a whole number of bytes and a file name other than answer.webm or answer.mp4. Returns null
 * when an answer with that id is stored already (a retry whose first response was lost: the caller lets the save
 * refuse it, as it would the same retry with its file). Otherwise joins the parts of the candidate's live take of the
 * question, exactly `size` bytes from 0, into one file, or throws 409 NOT_COMPLETE (no such take, someone else's,
 * retired, a gap, another size, or another submit of it running). Returns {file, check, finish}: `check(txApp,
 * refuse)` inside the transaction that stores the answer refuses (409) a take retired since (transactions run one
 * at a time, so it holds until the commit); `finish(stored)` after the transaction, whatever its outcome, ends the
 * submit, and removes the joined copy if the answer was not stored (the parts stay for a retry).
 */
function stagedAnswerFile(app, request) {
  const size = wholeNumber(request.size);
  if (size === null) throw new BadRequestError("The size must be the take's total bytes.");
  if (request.fileName !== "answer.webm" && request.fileName !== "answer.mp4") {
    throw new BadRequestError('The file name must be "answer.webm" or "answer.mp4".');
  }
  const { findByIdOrNull } = require(`${__hooks}/lib/util.js`);
  const takeId = request.id;
  if (!validTakeId(takeId)) throw new BadRequestError("The id of an answer from a staged take is 15 characters a-z and 0-9.");
  if (findByIdOrNull(app, "answers", takeId)) return null;
  const release = lockSubmit(app, takeId);
  if (!release) throw new ApiError(409, NOT_COMPLETE);
  let joined = null;
  try {
    if (isLive(findRow(app, takeId), request.candidate, request.question)) {
      joined = require(`${__hooks}/lib/take-files.js`).assembleParts(app, takeId, size, request.fileName);
    }
  } finally {
    if (!joined) release();
  }
  if (!joined) throw new ApiError(409, NOT_COMPLETE);
  return {
    file: joined.file,
    check: (txApp, refuse) => {
      if (!isLive(findRow(txApp, takeId), request.candidate, request.question)) refuse(new ApiError(409, NOT_COMPLETE));
    },
    finish: (stored) => {
      try {
        if (!stored) joined.cleanup();
      } finally {
        release();
      }
    },
  };
}

/**
 * After `answer` was stored (whatever the way): its staged take, if it is its candidate's (the one it was joined
 * from, or one the whole file replaces: the client's fallback), is of no more use, row and dir; and every other
 * take of its question is retired (an answered question takes no more parts). Failures are logged, never thrown:
 * the answer is stored, and the cron removes what is left.
 */
function settleTakes(app, answer) {
  const candidate = answer.getString("candidate");
  const row = findRow(app, answer.id);
  const steps = [() => retireTakesOf(app, candidate, answer.getString("question"))];
  if (row && row.getString("candidate") === candidate) {
    steps.unshift(() => require(`${__hooks}/lib/take-files.js`).removeTake(app, answer.id), () => app.delete(row));
  }
  for (const step of steps) {
    try {
      step();
    } catch (err) {
      app.logger().warn("could not remove the staged takes of a stored answer", "answer", answer.id, "error", String(err));
    }
  }
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
  reservePart,
  retireTake,
  stagedAnswerFile,
  settleTakes,
};
