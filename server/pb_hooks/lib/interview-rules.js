/// <reference path="../../../.cache/pocketbase/types.d.ts" />
// The JS twin of internal/interview/rules.go, kept only for the JS hooks still calling it (takes.pb.js: staged
// parts; answers.pb.js: answers; candidates.pb.js: deadlines; lib/take-sweep.js); change both together until they go.
// Issue 17 points 5 to 8: the times and takes a candidate is given (extra time, extra takes), whether the interview
// is closed (deadline, withdrawn), the grace window for what was under way before the deadline, and the refusals with their machine-readable codes.
// Every time here is the server's clock (lib/clock.js), so a suite's own server can move it.

const clock = require(`${__hooks}/lib/clock.js`);

/**
 * What was under way before the deadline (a staged take whose first part arrived before it, an answer to a question
 * opened before it) may still be sent this long after it: the time staged takes are kept (decisions.md "Staged takes").
 */
const GRACE_MS = 24 * 60 * 60 * 1000;
/** A text answer may arrive this long after its time is up: the network and the client's send queue. */
const TEXT_TOLERANCE_MS = 5 * 60 * 1000;
/** A video answer may be this much longer than its time: the recorder stops a moment after the countdown ends. */
const VIDEO_TOLERANCE_SECONDS = 3;

/** How long ffprobe may take to read an answer's packets before the length check gives up (and accepts). */
const PROBE_SECONDS = 20;

const FACTORS = { "1.5": 1.5, 2: 2 };
const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

const WITHDRAWN_MESSAGE = "This invitation was withdrawn.";
const TIME_OVER_MESSAGE = "The time to answer this question is over.";
const TOO_LONG_MESSAGE = "This answer is longer than the time allowed.";

/** Whether the candidate was given unlimited time: no countdown, no length limit. */
function isUntimed(candidate) {
  return candidate.getString("extraTime") === "unlimited";
}

/** Seconds the candidate is given for `base` seconds: × 1.5 or × 2 rounded up; the base itself with unlimited time. */
function effectiveSeconds(base, candidate) {
  const factor = FACTORS[candidate.getString("extraTime")] || 1;
  return Math.ceil(base * factor);
}

/** The answer seconds of `question` (a questions record) for the candidate. */
function effectiveTimeout(question, candidate) {
  return effectiveSeconds(question.getInt("timeout"), candidate);
}

/** The takes the candidate has for a question: its video_questions record's takes (at least 1; 1 for text) plus extraTakes. */
function maxTakes(videoKind, candidate) {
  const base = videoKind ? Math.max(1, videoKind.getInt("takes")) : 1;
  return videoKind ? base + Math.max(0, candidate.getInt("extraTakes")) : base;
}

/** "24 November 2026" (UTC) of a stored date's text. */
function formatDay(text) {
  const date = new Date(clock.parseDbTime(text));
  return `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}`;
}

/** 403 with `{ interview: { code, message } }` in the error data: the client reads the code, the candidate the message. */
function refusal(code, message) {
  return new ApiError(403, message, { interview: new ValidationError(code, message) });
}

function deadlinePassedError(candidate) {
  return refusal("deadline_passed", `This interview closed on ${formatDay(candidate.getString("deadline"))}.`);
}

function withdrawnError() {
  return refusal("withdrawn", WITHDRAWN_MESSAGE);
}

/** Issue 19: the company closed the candidate's job (lib/job-lifecycle.js); no grace, as after a withdrawal. */
function jobClosedError() {
  return refusal("job_closed", require(`${__hooks}/lib/job-lifecycle.js`).JOB_CLOSED_MESSAGE);
}

function timeOverError() {
  return refusal("time_over", TIME_OVER_MESSAGE);
}

function tooLongError() {
  return refusal("answer_too_long", TOO_LONG_MESSAGE);
}

/** The candidate's deadline in milliseconds, or NaN without one. */
function deadlineMs(candidate) {
  return clock.parseDbTime(candidate.getString("deadline"));
}

/**
 * Refuses (403 withdrawn / job_closed / deadline_passed) what the candidate sends now, unless the interview is open, or it is
 * the deadline's grace window and what is sent belongs to something that started before the deadline at
 * `startedMs` (NaN: something new, which never has grace). Withdrawn and a closed job have no grace.
 */
function requireAnswerable(app, candidate, startedMs) {
  if (candidate.getBool("withdrawn")) throw withdrawnError();
  if (require(`${__hooks}/lib/job-lifecycle.js`).closedJob(app, candidate.getString("job"))) throw jobClosedError();
  const deadline = deadlineMs(candidate);
  if (!Number.isFinite(deadline)) return;
  const now = clock.nowMs(app);
  if (now < deadline) return;
  if (Number.isFinite(startedMs) && startedMs < deadline && now <= deadline + GRACE_MS) return;
  throw deadlinePassedError(candidate);
}

/** When the candidate first opened the question (milliseconds; NaN if never), from question_progress. */
function openedAtMs(app, candidateId, questionId) {
  const row = require(`${__hooks}/lib/progress.js`).findProgress(app, candidateId, questionId);
  return row ? clock.parseDbTime(row.getString("openedAt")) : NaN;
}

/**
 * A text answer arriving now: refused (time_over) later than its opening + the candidate's time + 5 minutes.
 * Never opened: judged from its arrival (allowed). Unlimited time: never refused.
 */
function requireTextInTime(app, candidate, question, openedMs) {
  if (isUntimed(candidate) || !Number.isFinite(openedMs)) return;
  const limit = openedMs + effectiveTimeout(question, candidate) * 1000 + TEXT_TOLERANCE_MS;
  if (clock.nowMs(app) > limit) throw timeOverError();
}

/**
 * The decoded length of a media file in seconds (the largest packet pts + duration of any stream, by ffprobe), or
 * null when ffprobe cannot read it (logged: the media worker's check reports broken files). Runs inside the
 * transaction that stores the answer: a WebM is read in Go from its header and last cluster (pocketbase/webm_length.go),
 * so the time does not grow with the answer and no ffprobe starts; anything else is ffprobe's, and a file that keeps
 * it busy is given up on, not waited for (pocketbase/media_probe.go).
 */
function mediaSeconds(path) {
  const seconds = $screenroomMediaSeconds(path, PROBE_SECONDS);
  return typeof seconds === "number" ? seconds : null;
}

/** A video answer's file at `path`: refused (answer_too_long) when longer than the candidate's time + 3 s. */
function requireVideoInTime(app, candidate, question, path) {
  if (isUntimed(candidate)) return;
  const seconds = mediaSeconds(path);
  if (seconds === null) return;
  if (seconds > effectiveTimeout(question, candidate) + VIDEO_TOLERANCE_SECONDS) throw tooLongError();
}

/**
 * A candidate's deadline as a manager sets it (records API, candidates.pb.js): when set on a new record or changed,
 * it must be in the future, else 400 on the field. Clearing it is always allowed.
 */
function refusePastDeadline(app, record) {
  const deadline = record.getString("deadline");
  const original = record.isNew() ? null : record.original();
  const changed = !original || deadline !== original.getString("deadline");
  if (deadline && changed && !(clock.parseDbTime(deadline) > clock.nowMs(app))) {
    throw require(`${__hooks}/lib/util.js`).fieldError("deadline", "The deadline must be in the future.", "validation_past_deadline");
  }
}

/** Where a stored record's file is on the local storage (PocketBase's pb_data/storage). */
function storedFilePath(app, record, field) {
  return $filepath.join(app.dataDir(), "storage", record.baseFilesPath(), record.getString(field));
}

/**
 * Calls fn with a local path to a stored record's file and returns what it returns. On local storage that is the
 * stored file itself; on S3 (settings.pb.js) ffprobe cannot read the bucket, so the object is streamed through
 * PocketBase's filesystem (the same one the save wrote it with, so inside the transaction it is already there) into a
 * temp file, removed afterwards. Streamed by `cat`, not read into the JS VM: a video may be hundreds of MB.
 */
function withStoredFile(app, record, field, fn) {
  if (!app.settings().s3.enabled) return fn(storedFilePath(app, record, field));
  const name = record.getString(field);
  const tmp = $filepath.join($os.tempDir(), `screenroom-probe-${$security.randomString(20)}${$filepath.ext(name)}`);
  const fsys = app.newFilesystem();
  try {
    const reader = fsys.getReader(`${record.baseFilesPath()}/${name}`);
    try {
      const cmd = $os.cmd("sh", "-c", 'cat > "$1"', "sh", tmp);
      cmd.stdin = reader;
      cmd.run();
    } finally {
      reader.close();
    }
    return fn(tmp);
  } finally {
    fsys.close();
    try {
      $os.remove(tmp);
    } catch (_) {
      // never written
    }
  }
}

module.exports = {
  GRACE_MS,
  TEXT_TOLERANCE_MS,
  VIDEO_TOLERANCE_SECONDS,
  WITHDRAWN_MESSAGE,
  TIME_OVER_MESSAGE,
  TOO_LONG_MESSAGE,
  isUntimed,
  effectiveSeconds,
  effectiveTimeout,
  maxTakes,
  formatDay,
  refusal,
  deadlinePassedError,
  withdrawnError,
  jobClosedError,
  requireAnswerable,
  openedAtMs,
  requireTextInTime,
  mediaSeconds,
  requireVideoInTime,
  storedFilePath,
  withStoredFile,
  refusePastDeadline,
};
