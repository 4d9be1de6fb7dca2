/// <reference path="../../../.cache/pocketbase/types.d.ts" />
// Staged takes: a video take uploaded in parts while it is recorded (pb_hooks/takes.pb.js), then turned into an
// answer by POST /api/screenroom/answers with `take` (pb_hooks/answers.pb.js). A staged take is not an answer:
// nobody reads it, and one never submitted is removed by the hourly cron after a day.
//
// On disk: {dataDir}/screenroom_takes/{takeId}/
//   meta.json          {candidate, question}, written once, by the first part that passed the access check
//   {offset}           one file per part, named by its byte offset in the take (decimal)
//   .part-*, .meta-*   a part or the meta being written (renamed / linked into place when complete)
//   .submit-*/{name}   the assembled take while POST /api/screenroom/answers stores it
// Bytes only ever move Go-side (os.File.ReadFrom), never through JS arrays.

const TAKE_ID = /^[a-z0-9]{15}$/;
const OFFSET = /^[0-9]{1,15}$/;
const PART_NAME = /^(0|[1-9][0-9]*)$/;
const META = "meta.json";
/** At most this many parts per take: a take of 600 s in 1 s chunks has about 600. */
const MAX_PARTS = 10000;
const PART_MAX_BYTES = 16 * 1024 * 1024;
const DIR_MODE = 0o755;
const FILE_MODE = 0o644;

const REFUSED = "You cannot record an answer to this question.";
const NOT_COMPLETE = "The take is not complete on the server.";

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

/** {candidate, question} of a staged take, or null when there is none (or it is unreadable). */
function readMeta(app, takeId) {
  try {
    const meta = JSON.parse(toString($os.readFile($filepath.join(takeDir(app, takeId), META))));
    if (meta && typeof meta.candidate === "string" && typeof meta.question === "string") return meta;
  } catch (_) {
    // no take, or not one of ours
  }
  return null;
}

/**
 * One staged take per candidate and question: a new take drops the one staged before it (the interview records one
 * take at a time; 'Record again' or a second tab makes the older one obsolete, and its submit then gets 409 and
 * uploads its whole file). Without it, a candidate's link could stage 150 MB takes without end. The latest take
 * of each pair is named in `.owners/{candidate}-{question}`.
 */
function replaceEarlierTake(app, takeId, meta) {
  const owners = $filepath.join(stagingRoot(app), ".owners");
  $os.mkdirAll(owners, DIR_MODE);
  const root = $os.openRoot(owners);
  try {
    const name = `${meta.candidate}-${meta.question}`;
    let earlier = "";
    try {
      earlier = toString(root.readFile(name));
    } catch (_) {
      // the pair's first take
    }
    if (earlier !== takeId && validTakeId(earlier)) {
      const earlierMeta = readMeta(app, earlier);
      if (earlierMeta && earlierMeta.candidate === meta.candidate && earlierMeta.question === meta.question) {
        removeTake(app, earlier);
      }
    }
    root.writeFile(name, takeId, FILE_MODE);
  } finally {
    root.close();
  }
}

/**
 * Records who a take belongs to, once: the meta is written under a temporary name and hard-linked into place,
 * which fails when it exists, so of two first parts racing only one meta ever counts. The take replaces the
 * candidate's earlier take of the same question. Returns the meta in place.
 */
function claimTake(app, takeId, meta) {
  const dir = takeDir(app, takeId);
  $os.mkdirAll(dir, DIR_MODE);
  const root = $os.openRoot(dir);
  try {
    const tmp = `.meta-${$security.randomString(12)}`;
    root.writeFile(tmp, JSON.stringify({ candidate: meta.candidate, question: meta.question }), FILE_MODE);
    try {
      root.link(tmp, META);
    } catch (_) {
      // another request wrote it first: what it wrote is what counts
    }
    root.remove(tmp);
  } finally {
    root.close();
  }
  const claimed = readMeta(app, takeId);
  if (claimed && claimed.candidate === meta.candidate && claimed.question === meta.question) replaceEarlierTake(app, takeId, claimed);
  return claimed;
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
 * Streams `body` (the request body) into the part at `offset`: written under a temporary name, then renamed over
 * any earlier part at that offset (a retry replaces it). Refuses (400) a part that would take the take's staged
 * bytes, or its end, past `maxBytes`. Returns the bytes stored.
 */
function writePart(app, takeId, offset, body, maxBytes) {
  const dir = takeDir(app, takeId);
  const root = $os.openRoot(dir);
  try {
    const tmp = `.part-${$security.randomString(12)}`;
    let written = 0;
    const file = root.create(tmp);
    try {
      written = Number(file.readFrom(body));
    } catch (err) {
      file.close();
      root.remove(tmp);
      throw err; // a body over the part limit is PocketBase's 413; a dropped connection ends the request anyway
    }
    file.close();

    const others = listParts(dir).filter((part) => part.offset !== offset);
    const staged = others.reduce((sum, part) => sum + part.size, 0);
    let refusal = null;
    if (offset + written > maxBytes || staged + written > maxBytes) refusal = tooBig(maxBytes);
    else if (others.length >= MAX_PARTS) refusal = new BadRequestError(`A take has at most ${MAX_PARTS} parts.`);
    if (refusal) {
      root.remove(tmp);
      throw refusal;
    }
    root.rename(tmp, String(offset));
    return written;
  } finally {
    root.close();
  }
}

/** Removes a take's staging dir (nothing when there is none). */
function removeTake(app, takeId) {
  $os.removeAll(takeDir(app, takeId));
}

/**
 * Joins a staged take into one file `fileName` (Go-side copies) for the answer of `candidate` to `question`.
 * Returns {file, cleanup} (file: a filesystem.File to attach; cleanup removes the joined copy), or null when the
 * take is missing, is someone else's (meta), or its parts are not contiguous from 0 to exactly `size` bytes.
 */
function assembleTake(app, takeId, candidate, question, size, fileName) {
  const meta = readMeta(app, takeId);
  if (!meta || meta.candidate !== candidate || meta.question !== question) return null;
  const dir = takeDir(app, takeId);
  const parts = listParts(dir);
  let end = 0;
  for (const part of parts) {
    if (part.offset !== end) return null; // a gap, or an overlap
    end += part.size;
  }
  if (end !== size) return null;

  const sub = `.submit-${$security.randomString(12)}`;
  const root = $os.openRoot(dir);
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

/** Removes staged takes in which nothing changed for `maxAgeSeconds`. Returns how many. */
function removeStaleTakes(app, maxAgeSeconds) {
  const rootDir = stagingRoot(app);
  let entries;
  try {
    entries = $os.readDir(rootDir);
  } catch (_) {
    return 0; // nothing staged yet
  }
  const now = Date.now() / 1000;
  let removed = 0;
  for (const entry of entries) {
    const dir = $filepath.join(rootDir, entry.name());
    let newest = 0;
    try {
      newest = Number(entry.info().modTime().unix());
      if (entry.isDir()) {
        for (const inner of $os.readDir(dir)) newest = Math.max(newest, Number(inner.info().modTime().unix()));
      }
    } catch (_) {
      continue; // removed meanwhile
    }
    if (now - newest < maxAgeSeconds) continue;
    $os.removeAll(dir);
    removed++;
  }
  return removed;
}

module.exports = {
  OFFSET,
  PART_MAX_BYTES,
  REFUSED,
  NOT_COMPLETE,
  takeDir,
  validTakeId,
  maxTakeBytes,
  tooBig,
  readMeta,
  claimTake,
  listParts,
  writePart,
  removeTake,
  assembleTake,
  removeStaleTakes,
};
