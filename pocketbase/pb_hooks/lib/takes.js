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
// On disk: {dataDir}/screenroom_takes/{takeId}/
//   {offset}           one file per part, named by its byte offset in the take (decimal)
//   .part-*            a part being written (renamed into place when complete)
//   .submit-*/{name}   the assembled take while POST /api/screenroom/answers stores it
// The dir is made only by the transaction that inserts the take's row; a part never makes it again, so a take that
// was replaced or discarded (its dir removed) stays gone. Bytes only ever move Go-side (os.File.ReadFrom), never
// through JS arrays.

const COLLECTION = "staged_takes";
const TAKE_ID = /^[a-z0-9]{15}$/;
const OFFSET = /^[0-9]{1,15}$/;
const PART_NAME = /^(0|[1-9][0-9]*)$/;
/** At most this many parts per take: a take of 600 s in 1 s chunks has about 600. */
const MAX_PARTS = 10000;
const PART_MAX_BYTES = 16 * 1024 * 1024;
const DIR_MODE = 0o755;

const REFUSED = "You cannot record an answer to this question.";
const NOT_COMPLETE = "The take is not complete on the server.";
const REPLACED = "This take was replaced by a newer one.";
const SUBMITTED = "This answer has already been submitted.";

function stagingRoot(app) {
  return $filepath.join(app.dataDir(), "screenroom_takes");
}

function takeDir(app, takeId) {
  return $filepath.join(stagingRoot(app), takeId);
}

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
      $os.mkdirAll(takeDir(txApp, takeId), DIR_MODE);
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
    removeTake(app, takeId);
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
  removeTakesQuietly(app, retired);
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

/** The parts of a staged take, [{offset, size}] by offset; [] when there is none. */
function listParts(dir) {
  let entries;
  try {
    entries = $os.readDir(dir);
  } catch (_) {
    return [];
  }
  const parts = [];
  for (const entry of entries) {
    const name = entry.name();
    if (entry.isDir() || !PART_NAME.test(name)) continue;
    parts.push({ offset: parseInt(name, 10), size: Number(entry.info().size()) });
  }
  parts.sort((a, b) => a.offset - b.offset);
  return parts;
}

/**
 * Streams `body` (the request body, `length` bytes, already reserved by reservePart) into the part at `offset`:
 * written under a temporary name, then renamed over any earlier part at that offset (a retry replaces it). Never
 * makes the take's dir: when it is gone (the take was replaced or discarded since the reservation) the part is
 * refused with 409. Returns the bytes stored.
 */
function writePart(app, takeId, offset, body, length) {
  const dir = takeDir(app, takeId);
  // the dir removed while this part was on its way is the 409; any other failure is itself
  const goneOr = (err) => {
    try {
      $os.stat(dir);
    } catch (_) {
      return replacedError();
    }
    return err;
  };
  let root;
  try {
    root = $os.openRoot(dir);
  } catch (err) {
    throw goneOr(err);
  }
  try {
    const tmp = `.part-${$security.randomString(12)}`;
    let file;
    try {
      file = root.create(tmp);
    } catch (err) {
      throw goneOr(err);
    }
    let written = 0;
    try {
      written = Number(file.readFrom(body));
    } catch (err) {
      file.close();
      removeQuietly(root, tmp);
      throw err; // a body over the part limit is PocketBase's 413; a dropped connection ends the request anyway
    }
    file.close();

    let refusal = null;
    if (written !== length) refusal = new BadRequestError("The part's body is not as long as its Content-Length.");
    else if (listParts(dir).filter((part) => part.offset !== offset).length >= MAX_PARTS) {
      refusal = new BadRequestError(`A take has at most ${MAX_PARTS} parts.`);
    }
    if (refusal) {
      removeQuietly(root, tmp);
      throw refusal;
    }
    try {
      root.rename(tmp, String(offset));
    } catch (err) {
      removeQuietly(root, tmp);
      throw goneOr(err);
    }
    return written;
  } finally {
    root.close();
  }
}

function removeQuietly(root, name) {
  try {
    root.remove(name);
  } catch (_) {
    // gone already (with its dir)
  }
}

/**
 * Removes a take's staging dir (nothing when there is none). A part being renamed into it at that very moment can
 * make the removal find the dir not empty: it tries again.
 */
function removeTake(app, takeId) {
  const dir = takeDir(app, takeId);
  for (let attempt = 1; ; attempt++) {
    try {
      $os.removeAll(dir);
      return;
    } catch (err) {
      if (attempt >= 3) throw err;
    }
  }
}

/** Removes the staging dirs of `takeIds`, logging (never throwing) what could not be removed (the cron tries later). */
function removeTakesQuietly(app, takeIds) {
  for (const takeId of takeIds) {
    try {
      removeTake(app, takeId);
    } catch (err) {
      app.logger().warn("could not remove a staged take", "take", takeId, "error", String(err));
    }
  }
}

/**
 * Joins a staged take into one file `fileName` (Go-side copies) for the answer of `candidate` to `question`.
 * Returns {file, cleanup} (file: a filesystem.File to attach; cleanup removes the joined copy), or null when the
 * take has no live row of that candidate and question, or its parts are not contiguous from 0 to exactly `size`
 * bytes. (The caller checks the row again inside the transaction that stores the answer.)
 */
function assembleTake(app, takeId, candidate, question, size, fileName) {
  if (!isLive(findRow(app, takeId), candidate, question)) return null;
  const dir = takeDir(app, takeId);
  const parts = listParts(dir);
  let end = 0;
  for (const part of parts) {
    if (part.offset !== end) return null; // a gap, or an overlap
    end += part.size;
  }
  if (end !== size) return null;

  const sub = `.submit-${$security.randomString(12)}`;
  let root;
  try {
    root = $os.openRoot(dir);
  } catch (_) {
    return null; // replaced or discarded meanwhile
  }
  let complete = false;
  try {
    root.mkdir(sub, DIR_MODE);
    const out = root.create(`${sub}/${fileName}`);
    try {
      let copied = 0;
      for (const part of parts) {
        const input = root.open(String(part.offset));
        try {
          copied += Number(out.readFrom(input));
        } finally {
          input.close();
        }
      }
      // a part replaced by a retry of another size since it was listed
      complete = copied === size;
    } finally {
      out.close();
    }
  } catch (_) {
    complete = false; // a part vanished (the take was discarded meanwhile)
  } finally {
    if (!complete) {
      try {
        root.removeAll(sub);
      } catch (_) {
        // the take dir itself is gone
      }
    }
    root.close();
  }
  if (!complete) return null;
  const path = $filepath.join(dir, sub, fileName);
  return {
    file: $filesystem.fileFromPath(path),
    cleanup: () => $os.removeAll($filepath.join(dir, sub)),
  };
}

/** PocketBase's datetime text (UTC, "2006-01-02 15:04:05.000Z") of `ms` since the epoch. */
function dbTime(ms) {
  return new Date(ms).toISOString().replace("T", " ");
}

/**
 * The hourly sweep: removes staged takes whose row was not updated for `maxAgeSeconds` (each part updates it), row
 * and dir; the dirs of replaced takes still there (a removal that failed); and anything else under the staging root
 * without a row (a take whose candidate or question was deleted, leftovers of older versions) once nothing in it
 * changed for `maxAgeSeconds`. Returns how many takes and dirs it removed.
 */
function removeStaleTakes(app, maxAgeSeconds) {
  const cutoff = dbTime(Date.now() - maxAgeSeconds * 1000);
  let removed = 0;
  for (const stale of app.findRecordsByFilter(COLLECTION, "updated < {:cutoff}", "", 0, 0, { cutoff: cutoff })) {
    const takeId = stale.getString("take");
    try {
      let deleted = false;
      app.runInTransaction((txApp) => {
        // a part may have come in since the list was read
        const row = findRow(txApp, takeId);
        if (row && row.getString("updated") < cutoff) {
          txApp.delete(row);
          deleted = true;
        }
      });
      if (!deleted) continue;
      removeTake(app, takeId);
      removed++;
    } catch (err) {
      app.logger().warn("could not remove a stale staged take", "take", takeId, "error", String(err));
    }
  }

  const rootDir = stagingRoot(app);
  let entries;
  try {
    entries = $os.readDir(rootDir);
  } catch (_) {
    return removed; // nothing staged yet
  }
  const rows = {};
  for (const row of app.findAllRecords(COLLECTION)) rows[row.getString("take")] = row;
  const now = Date.now() / 1000;
  for (const entry of entries) {
    const name = entry.name();
    const row = rows[name];
    if (row && !row.getBool("replaced")) continue; // a live take: its row decides
    const dir = $filepath.join(rootDir, name);
    if (!row) {
      let newest = 0;
      try {
        newest = Number(entry.info().modTime().unix());
        if (entry.isDir()) {
          for (const inner of $os.readDir(dir)) newest = Math.max(newest, Number(inner.info().modTime().unix()));
        }
      } catch (_) {
        continue; // removed meanwhile
      }
      if (now - newest < maxAgeSeconds) continue; // maybe a take whose row is being inserted right now
    }
    try {
      $os.removeAll(dir);
      removed++;
    } catch (err) {
      app.logger().warn("could not remove a staged take's dir", "name", name, "error", String(err));
    }
  }
  return removed;
}

module.exports = {
  retireTakesOf,
  lockSubmit,
  OFFSET,
  PART_MAX_BYTES,
  REFUSED,
  NOT_COMPLETE,
  SUBMITTED,
  takeDir,
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
  listParts,
  writePart,
  removeTake,
  removeTakesQuietly,
  assembleTake,
  removeStaleTakes,
};
