/// <reference path="../../../.cache/pocketbase/types.d.ts" />
// A staged take becomes an answer's file (POST /api/screenroom/answers with `staged`, answers.pb.js), in one place:
// stagedAnswerFile before and during the transaction that stores the answer, settleTakes after it. The rows are
// lib/takes.js's, the files lib/take-files.js's.

const takes = require(`${__hooks}/lib/takes.js`);

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
  if (!takes.validTakeId(takeId)) throw new BadRequestError("The id of an answer from a staged take is 15 characters a-z and 0-9.");
  if (findByIdOrNull(app, "answers", takeId)) return null;
  const release = lockSubmit(app, takeId);
  if (!release) throw new ApiError(409, takes.NOT_COMPLETE);
  let joined = null;
  try {
    if (takes.isLive(takes.findRow(app, takeId), request.candidate, request.question)) {
      joined = require(`${__hooks}/lib/take-files.js`).assembleParts(app, takeId, size, request.fileName);
    }
  } finally {
    if (!joined) release();
  }
  if (!joined) throw new ApiError(409, takes.NOT_COMPLETE);
  return {
    file: joined.file,
    check: (txApp, refuse) => {
      if (!takes.isLive(takes.findRow(txApp, takeId), request.candidate, request.question)) refuse(new ApiError(409, takes.NOT_COMPLETE));
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
  const row = takes.findRow(app, answer.id);
  const steps = [() => takes.retireTakesOf(app, candidate, answer.getString("question"))];
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

module.exports = { stagedAnswerFile, settleTakes };
