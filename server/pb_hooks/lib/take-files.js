/// <reference path="../../../.cache/pocketbase/types.d.ts" />
// A staged take on disk (lib/takes.js decides who it belongs to and whether it is live). The parts are written, read
// back and swept in Go (server/internal/takes/take_files.go, the same layout); this file keeps what the answers
// route's JS (lib/take-submit.js) and history.pb.js still call: the join of a take at submit and its removal.
// {dataDir}/screenroom_takes/{takeId}/
//   .joined            the layout below (a take staged before it has its parts' bytes in the part files)
//   take               the take's bytes, each part's at its offset, synced as each part arrives
//   {offset}           one file per part, named by its byte offset in the take (decimal), as long as the part but
//                      holding none of its bytes (a sparse file): the part's name and size, made once its bytes are in
//                      `take`
//   .part-*            a part being received (copied into `take`, then truncated into the part's file)
//   .submit-*/{name}   `take` while POST /api/screenroom/answers stores it (moved, not copied: the Go main renames it
//                      into the answer's storage folder, staged_takes.go; a failed save puts it back)
// The dir is made only by the transaction that inserts the take's row; a part never makes it again, so a take that
// was replaced or discarded (its dir removed) stays gone. Bytes only ever move Go-side (os.File.ReadFrom), never
// through JS arrays. A part is confirmed (2xx) only once its bytes and its name are on stable storage: `take` and the
// dir are fsynced (issue 26: the device may drop its copy of what the server confirmed). Submitting a take costs the
// same at any length (issue 20 point 4; decisions.md: "a submit only moves it and syncs the folder").

const DIR_MODE = 0o755;
const DATA = "take";
const JOINED = ".joined";
// os.OpenFile's flag on Linux (the JS VM has no name for it)
const O_RDWR = 0x2;

function stagingRoot(app) {
  return $filepath.join(app.dataDir(), "screenroom_takes");
}

function takeDir(app, takeId) {
  return $filepath.join(stagingRoot(app), takeId);
}

/** The parts of a staged take, [{offset, size}] by offset; [] when there is none (listed in Go: staged_takes.go). */
function listParts(dir) {
  return $screenroomListParts(dir);
}

function exists(root, name) {
  try {
    root.stat(name);
    return true;
  } catch (_) {
    return false;
  }
}

/**
 * Whether the take's file is in its dir (call with the take's lock held). When it is not, and no submit of the take
 * is running (`submitting`: the caller is that submit), one that was cut off (the server stopped during it) left
 * it in its .submit dir: it is put back.
 */
function takeHere(app, root, takeId, submitting) {
  if (exists(root, DATA)) return true;
  if (!submitting && app.store().has("screenroomSubmit:" + takeId)) return false;
  return restoreTake(root);
}

/** Puts back the take's file from a .submit dir: true when `take` is there again. */
function restoreTake(root) {
  for (const entry of $os.readDir(root.name())) {
    const name = entry.name();
    if (!entry.isDir() || name.indexOf(".submit-") !== 0) continue;
    for (const inner of $os.readDir($filepath.join(root.name(), name))) {
      if (inner.isDir()) continue;
      root.rename(`${name}/${inner.name()}`, DATA);
      removeAllQuietly(root, name);
      syncDir(root, ".");
      return true;
    }
  }
  return exists(root, DATA);
}

function removeAllQuietly(root, name) {
  try {
    root.removeAll(name);
  } catch (_) {
    // gone already
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
 * Makes a staged take's parts one file `fileName` for its answer. Returns {file, cleanup} (file: a filesystem.File to
 * attach; cleanup, when the answer was not stored, puts the take back as it was), or null when the parts contiguous
 * from 0 do not make exactly `size` bytes. Parts after a gap are left out: a take cut off by a crash may have a later
 * part without the one before it, and its recording is what came before the gap. The take's file is moved, not
 * copied (and the Go main moves it on into storage): the same work at any length. A take staged before that layout
 * has its bytes in its part files: they are copied into one.
 */
function assembleParts(app, takeId, size, fileName) {
  const dir = takeDir(app, takeId);
  let end = 0;
  for (const part of listParts(dir)) {
    if (part.offset !== end) break; // a gap: what follows it is not part of the take (cut off by a crash)
    end += part.size;
  }
  if (end !== size) return null;

  let root;
  try {
    root = $os.openRoot(dir);
  } catch (_) {
    return null; // replaced or discarded meanwhile
  }
  const sub = `.submit-${$security.randomString(12)}`;
  try {
    const moved = exists(root, JOINED) ? moveTake(app, root, takeId, sub, size, fileName) : copyParts(root, sub, size, fileName);
    if (!moved) return null;
  } finally {
    root.close();
  }
  const path = $filepath.join(dir, sub, fileName);
  return {
    file: $filesystem.fileFromPath(path),
    cleanup: () => {
      const take = $os.openRoot(dir);
      const unlock = $screenroomTakeLock(takeId);
      try {
        if (exists(take, JOINED) && exists(take, `${sub}/${fileName}`)) take.rename(`${sub}/${fileName}`, DATA);
        removeAllQuietly(take, sub);
      } finally {
        unlock();
        take.close();
      }
    },
  };
}

/** Moves the take's file into `sub` as `fileName`, cut to `size` bytes: false when it does not hold them. */
function moveTake(app, root, takeId, sub, size, fileName) {
  const unlock = $screenroomTakeLock(takeId);
  try {
    if (!takeHere(app, root, takeId, true)) return false;
    const held = Number(root.stat(DATA).size());
    if (held < size) return false;
    root.mkdir(sub, DIR_MODE);
    root.rename(DATA, `${sub}/${fileName}`);
    if (held > size) {
      // bytes after a gap (a part past the take's end): not the take's
      const file = root.openFile(`${sub}/${fileName}`, O_RDWR, 0);
      try {
        file.truncate(size);
      } finally {
        file.close();
      }
    }
    return true;
  } finally {
    unlock();
  }
}

/** Copies the take's parts from 0 (a take staged in part files) into `sub`/`fileName`: false when they are not `size` bytes. */
function copyParts(root, sub, size, fileName) {
  let complete = false;
  let full = null;
  try {
    root.mkdir(sub, DIR_MODE);
    const out = root.create(`${sub}/${fileName}`);
    try {
      let copied = 0;
      for (const part of listParts(root.name())) {
        if (part.offset !== copied || copied >= size) break;
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
    if (!complete) removeAllQuietly(root, sub);
  }
  if (full) throw full;
  return complete;
}

module.exports = {
  removeTake,
  removeTakesQuietly,
  assembleParts,
};
