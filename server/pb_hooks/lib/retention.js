/// <reference path="../../../.cache/pocketbase/types.d.ts" />
// Issue 19 point 5: retention (decisions.md "Data lifetime"). Each company keeps its candidates for
// companies.retentionMonths (0: forever). The daily cron `screenroom_retention` (retention.pb.js) deletes, through
// lib/erasure.js eraseCandidate only, every candidate of a company with a period whose job has been closed for
// longer than the period, or whose last activity is older than it. Now is the server's clock (lib/clock.js).
//
// A candidate's last activity is the latest of: being invited (created), any change to the candidate record (its
// `updated`: consent, answers counted, a decision, a deadline extended, a withdrawal), an answer sent, a question
// opened (its row's `updated`, and its openedAt, which is stamped on the server's clock), a take uploaded, a rating or comment written or changed, and a share link made. README "Retention" says
// the same in words.

/** The periods a company may choose, in months (0: keep forever). The company edit screen offers the same list. */
const RETENTION_MONTHS = [0, 3, 6, 12, 24, 36];
const RETENTION_MESSAGE = "Choose how long to keep candidates from the list.";
/** The cron's default: every day at 03:30 UTC. RETENTION_SCHEDULE (a cron expression) changes it. */
const DEFAULT_SCHEDULE = "30 3 * * *";
const JOB_ID = "screenroom_retention";

function schedule() {
  return String($os.getenv("RETENTION_SCHEDULE") || "").trim() || DEFAULT_SCHEDULE;
}

/** `ms` moved back by `months` calendar months (UTC; the 31st of a shorter month becomes its last day). */
function monthsBefore(ms, months) {
  const d = new Date(ms);
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() - months);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return d.getTime();
}

// The latest moment of each kind of activity of candidate c, as PocketBase's date texts ('' when none): MAX() of
// SQLite compares these texts in time order, and is NULL if any argument is, hence the COALESCEs.
const LAST_ACTIVITY_SQL = `MAX(
  COALESCE(c.created, ''), COALESCE(c.updated, ''),
  COALESCE((SELECT MAX(a.created) FROM answers a WHERE a.candidate = c.id), ''),
  COALESCE((SELECT MAX(p.updated) FROM question_progress p WHERE p.candidate = c.id), ''),
  COALESCE((SELECT MAX(p.openedAt) FROM question_progress p WHERE p.candidate = c.id), ''),
  COALESCE((SELECT MAX(t.updated) FROM staged_takes t WHERE t.candidate = c.id), ''),
  COALESCE((SELECT MAX(r.updated) FROM ratings r WHERE r.candidate = c.id), ''),
  COALESCE((SELECT MAX(m.updated) FROM comments m WHERE m.candidate = c.id), ''),
  COALESCE((SELECT MAX(s.created) FROM share_links s WHERE s.candidate = c.id), '')
)`;

/**
 * The candidates due for deletion at `atMs` (all companies, or only `companyId`), oldest reason first:
 * [{ id, email, firstName, lastName, job, jobTitle, company, reason: "job_closed" | "inactive", since }] where
 * `since` is when the job was closed or the last activity (PocketBase's date text).
 */
function dueCandidates(app, atMs, companyId) {
  const { parseDbTime } = require(`${__hooks}/lib/clock.js`);
  const rows = arrayOf(
    new DynamicModel({ id: "", email: "", firstName: "", lastName: "", job: "", jobTitle: "", closedAt: "", company: "", months: 0, lastActivity: "" }),
  );
  app
    .db()
    .newQuery(
      `SELECT c.id AS id, c.email AS email, COALESCE(c.firstName, '') AS firstName, COALESCE(c.lastName, '') AS lastName,
              j.id AS job, j.title AS jobTitle, COALESCE(j.closedAt, '') AS closedAt, co.id AS company,
              CAST(co.retentionMonths AS INTEGER) AS months, ${LAST_ACTIVITY_SQL} AS lastActivity
       FROM candidates c JOIN jobs j ON j.id = c.job JOIN companies co ON co.id = j.company
       WHERE COALESCE(co.retentionMonths, 0) > 0 AND ({:company} = '' OR co.id = {:company})`,
    )
    .bind({ company: companyId || "" })
    .all(rows);
  const due = [];
  for (const row of rows) {
    const cutoff = monthsBefore(atMs, row.months);
    const closed = parseDbTime(row.closedAt);
    let reason = null;
    let since = "";
    if (Number.isFinite(closed) && closed < cutoff) {
      reason = "job_closed";
      since = row.closedAt;
    } else if (parseDbTime(row.lastActivity) < cutoff) {
      reason = "inactive";
      since = row.lastActivity;
    }
    if (!reason) continue;
    due.push({
      id: row.id,
      email: row.email,
      firstName: row.firstName,
      lastName: row.lastName,
      job: row.job,
      jobTitle: row.jobTitle,
      company: row.company,
      reason: reason,
      since: since,
    });
  }
  due.sort((a, b) => (a.since < b.since ? -1 : a.since > b.since ? 1 : 0));
  return due;
}

/** One run of the cron: every due candidate erased (lib/erasure.js). Returns { deleted, failed }. */
function runRetention(app) {
  const { nowMs } = require(`${__hooks}/lib/clock.js`);
  const { eraseCandidate } = require(`${__hooks}/lib/erasure.js`);
  const result = { deleted: 0, failed: 0 };
  for (const candidate of dueCandidates(app, nowMs(app), "")) {
    try {
      if (eraseCandidate(app, candidate.id, { action: "retention_erase" })) result.deleted += 1;
    } catch (err) {
      // one candidate that cannot be deleted now (a locked row) does not keep the others; the next run tries again
      result.failed += 1;
      app.logger().error("retention could not delete a candidate", "candidate", candidate.id, "error", String(err));
    }
  }
  return result;
}

// ---- the next run, from the cron expression (PocketBase's cron, in UTC: minute hour day-of-month month weekday) ----

const MACROS = {
  "@yearly": "0 0 1 1 *",
  "@annually": "0 0 1 1 *",
  "@monthly": "0 0 1 * *",
  "@weekly": "0 0 * * 0",
  "@daily": "0 0 * * *",
  "@midnight": "0 0 * * *",
  "@hourly": "0 * * * *",
};

/** The values of one cron field between min and max ("*", "5", "1-5", "*\/15", "1-30/2", lists of these). */
function fieldValues(text, min, max) {
  const values = {};
  for (const part of text.split(",")) {
    const [range, stepText] = part.split("/");
    const step = stepText === undefined ? 1 : parseInt(stepText, 10);
    let from = min;
    let to = max;
    if (range !== "*") {
      const bounds = range.split("-").map((n) => parseInt(n, 10));
      from = bounds[0];
      to = bounds.length > 1 ? bounds[1] : stepText === undefined ? bounds[0] : max;
    }
    if (!(step > 0) || !Number.isFinite(from) || !Number.isFinite(to)) return null;
    for (let v = from; v <= to; v += step) values[v] = true;
  }
  return values;
}

/**
 * When a cron expression next fires after `afterMs` (ms), looking up to 400 days ahead; null when it does not (an
 * expression like "0 0 31 2 *", which the tests use so that only their own runs happen) or cannot be read.
 */
function nextRunMs(expression, afterMs) {
  const text = MACROS[String(expression).trim()] || String(expression).trim();
  const parts = text.split(/\s+/);
  if (parts.length !== 5) return null;
  const minutes = fieldValues(parts[0], 0, 59);
  const hours = fieldValues(parts[1], 0, 23);
  const days = fieldValues(parts[2], 1, 31);
  const months = fieldValues(parts[3], 1, 12);
  const weekdays = fieldValues(parts[4], 0, 6);
  if (!minutes || !hours || !days || !months || !weekdays) return null;
  const start = Math.floor(afterMs / 60000) * 60000 + 60000;
  const first = new Date(start);
  const dayStart = Date.UTC(first.getUTCFullYear(), first.getUTCMonth(), first.getUTCDate());
  for (let i = 0; i <= 400; i++) {
    const day = new Date(dayStart + i * 24 * 60 * 60 * 1000);
    if (!months[day.getUTCMonth() + 1] || !days[day.getUTCDate()] || !weekdays[day.getUTCDay()]) continue;
    for (let h = 0; h < 24; h++) {
      if (!hours[h]) continue;
      for (let m = 0; m < 60; m++) {
        if (!minutes[m]) continue;
        const at = day.getTime() + h * 3600000 + m * 60000;
        if (at >= start) return at;
      }
    }
  }
  return null;
}

/** The registered cron's expression (what PocketBase actually runs), else the configured one. */
function registeredSchedule(app) {
  for (const job of app.cron().jobs()) {
    if (job && job.id() === JOB_ID) return job.expression();
  }
  return schedule();
}

module.exports = {
  RETENTION_MONTHS,
  RETENTION_MESSAGE,
  DEFAULT_SCHEDULE,
  JOB_ID,
  schedule,
  monthsBefore,
  dueCandidates,
  runRetention,
  nextRunMs,
  registeredSchedule,
};
