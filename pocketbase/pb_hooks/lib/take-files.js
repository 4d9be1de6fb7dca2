/// <reference path="../../../.cache/pocketbase/types.d.ts" />
// A staged take on disk (lib/takes.js decides who it belongs to and whether it is live):
// {dataDir}/screenroom_takes/{takeId}/
//   {offset}           one file per part, named by its byte offset in the take (decimal)
//   .part-*            a part being written (renamed into place when complete)
//   .submit-*/{name}   the assembled take while POST /api/screenroom/answers stores it
// The dir is made only by the transaction that inserts the take's row; a part never makes it again, so a take that
// was replaced or discarded (its dir removed) stays gone. Bytes only ever move Go-side (os.File.ReadFrom), never
// through JS arrays. A part is confirmed (2xx) only once its bytes and its name are on stable storage: the file and
// its dir are fsynced (issue 26: the device may drop its copy of what the server confirmed).

const PART_NAME = /^(0|[1-9][0-9]*)$/;
/** At most this many parts per take: a take of 600 s in 1 s chunks has about 600. */
const MAX_PARTS = 10000;
const DIR_MODE = 0o755;

function stagingRoot(app) {
  return $filepath.join(app.dataDir(), "screenroom_takes");
}

function takeDir(app, takeId) {
  return $filepath.join(stagingRoot(app), takeId);
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
      return require(`${__hooks}/lib/takes.js`).retiredError();
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
      if (DURABLE) file.sync();
    } catch (err) {
      file.close();
      removeQuietly(root, tmp);
      // a body over the part limit is PocketBase's 413; a dropped connection ends the request anyway; a full disk
      // (ENOSPC) is the Go main's 507
      throw err;
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
    syncDir(root, ".");
    return written;
  } finally {
    root.close();
  }
}

/** Storage exhaustion (ENOSPC, a quota), which the Go main (storage_full.go) answers 507. */
function isStorageFull(err) {
  return /no space left on device|disk quota exceeded|database or disk is full/i.test(String(err));
}

/** Off only for the bench's "before" figure (SCREENROOM_DURABILITY=off, as the Go main's durable.go). */
const DURABLE = $os.getenv("SCREENROOM_DURABILITY") !== "off";

/** fsyncs the dir `name` of `root` (the names in it: a part renamed into place, a take's dir made). */
function syncDir(root, name) {
  if (!DURABLE) return;
  const dir = root.open(name);
  try {
    dir.sync();
  } finally {
    dir.close();
  }
}

/**
 * Makes a take's dir (in the transaction that inserts its row), durably: its name in the staging root, and the
 * staging root's in the data dir (made with the first take), are synced.
 */
function makeTakeDir(app, takeId) {
  $os.mkdirAll(takeDir(app, takeId), DIR_MODE);
  const root = $os.openRoot(app.dataDir());
  try {
    syncDir(root, "screenroom_takes");
    syncDir(root, ".");
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
 * Joins a staged take's parts into one file `fileName` (Go-side copies).
 * Returns {file, cleanup} (file: a filesystem.File to attach; cleanup removes the joined copy), or null when the
 * parts contiguous from 0 do not make exactly `size` bytes. Parts after a gap are left out: a take cut off by a crash
 * may have a later part without the one before it, and its recording is what came before the gap.
 */
function assembleParts(app, takeId, size, fileName) {
  const dir = takeDir(app, takeId);
  const parts = [];
  let end = 0;
  for (const part of listParts(dir)) {
    if (part.offset !== end) break; // a gap: what follows it is not part of the take (cut off by a crash)
    parts.push(part);
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
  let full = null;
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
  } catch (err) {
    complete = false; // a part vanished (the take was discarded meanwhile)
    if (isStorageFull(err)) full = err; // not the take's fault: the Go main answers 507, the client retries
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
  if (full) throw full;
  if (!complete) return null;
  const path = $filepath.join(dir, sub, fileName);
  return {
    file: $filesystem.fileFromPath(path),
    cleanup: () => $os.removeAll($filepath.join(dir, sub)),
  };
}

module.exports = {
  makeTakeDir,
  stagingRoot,
  takeDir,
  listParts,
  writePart,
  removeTake,
  removeTakesQuietly,
  assembleParts,
};
