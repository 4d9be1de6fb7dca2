/// <reference path="../../../.cache/pocketbase/types.d.ts" />
// Invites from a CSV file (issue 18 point 1): the rows of one import, sent by the SPA in chunks, each row created
// with the rules of a single invite (candidates.pb.js: normalized e-mail, one candidate per job and e-mail, the
// address's mail budget, the server's key, issue 17's deadline rules) and its e-mail queued (lib/util.js queueMail).
// Each row is its own save: a row that fails loses nothing of the rows before it, and a file sent again finds its
// created rows "already invited", so nobody is invited twice.

const MAX_ROWS = 1000; // per import (decisions.md: capped at 1,000 rows an import)
const IMPORT_TTL_MS = 6 * 60 * 60 * 1000; // how long the server remembers an import's addresses
const IMPORT_ID = /^[A-Za-z0-9_-]{8,64}$/;
const MAX_NAME = 100;

// The SPA's preview uses the same pattern (src/features/invites/lib/csv-invites.ts); PocketBase's e-mail field
// validates again on save.
const EMAIL = /^[^\s@<>()[\]\\,;:"]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/;

const REASONS = {
  invalid_email: "Not a valid e-mail address",
  duplicate_in_file: "Duplicate of an earlier row in the file",
  already_invited: "Already invited to this job",
  invalid_deadline: "The deadline is not a date",
  past_deadline: "The deadline must be in the future",
  invalid_name: "The name is longer than 100 characters",
  multi_line: "This field must be on one line.",
  too_many_mails: "Too many e-mails were sent to this address. Please try again later.",
  hourly_cap: "Over the limit of candidates you can invite in an hour. Send it again later.",
  error: "Something went wrong while processing your request.",
};

/** A deadline cell as the server's date text; '' when empty; null when not a date. A bare date is the end of that day (UTC). */
function parseDeadline(value) {
  const text = String(value == null ? "" : value).trim();
  if (!text) return "";
  const iso = /^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T23:59:59.000Z` : text;
  const ms = Date.parse(iso);
  if (!isFinite(ms)) return null;
  return ms;
}

/**
 * Registers the request's addresses with its import (user, job, import id) and returns whether the import is new
 * (then it costs the manager one invite action). 400 when the import would exceed MAX_ROWS distinct addresses.
 */
function registerImport(app, userId, jobId, importId, emails) {
  const now = Date.now();
  const key = `${userId}:${jobId}:${importId}`;
  let isNew = false;
  let over = false;
  app.store().setFunc("screenroomImports", (old) => {
    const all = old ? JSON.parse(old) : {};
    for (const k of Object.keys(all)) if (now - all[k].at > IMPORT_TTL_MS) delete all[k];
    const entry = all[key] || { at: now, emails: [] };
    isNew = !all[key];
    const known = {};
    for (const email of entry.emails) known[email] = true;
    const added = [];
    for (const email of emails) {
      if (!known[email]) {
        known[email] = true;
        added.push(email);
      }
    }
    over = entry.emails.length + added.length > MAX_ROWS;
    if (!over) {
      entry.emails = entry.emails.concat(added);
      entry.at = now;
      all[key] = entry;
    }
    return JSON.stringify(all);
  });
  if (over) throw new BadRequestError(`An import holds at most ${MAX_ROWS} rows.`, {});
  return isNew;
}

/** Forgets a new import whose first request was refused (so it costs nothing). */
function forgetImport(app, userId, jobId, importId) {
  app.store().setFunc("screenroomImports", (old) => {
    const all = old ? JSON.parse(old) : {};
    delete all[`${userId}:${jobId}:${importId}`];
    return JSON.stringify(all);
  });
}

/**
 * One row: { status: "created", candidate } | { status: "skipped" | "failed", reason, message }. `seen` holds the
 * addresses of the request's earlier rows; `allowance.left` the candidates the manager may still invite in this
 * request (lib/throttle.js takeBulkCandidates): a row that would be created past it fails ("hourly_cap") and is not
 * created, while rows that would be skipped anyway are still reported as skipped.
 */
function inviteRow(app, job, row, seen, allowance) {
  const { normalizeEmail } = require(`${__hooks}/lib/util.js`);
  const { takeMailBudget } = require(`${__hooks}/lib/throttle.js`);
  const { nowMs, dbTime } = require(`${__hooks}/lib/clock.js`);
  const result = (status, reason) => ({ status: status, reason: reason, message: REASONS[reason] });
  const email = normalizeEmail(row && row.email);
  if (!EMAIL.test(email) || email.length > 254) return result("skipped", "invalid_email");
  if (seen[email]) return result("skipped", "duplicate_in_file");
  seen[email] = true;
  const firstName = String((row && row.firstName) || "").trim();
  const lastName = String((row && row.lastName) || "").trim();
  if (firstName.length > MAX_NAME || lastName.length > MAX_NAME) return result("skipped", "invalid_name");
  const deadline = parseDeadline(row && row.deadline);
  if (deadline === null) return result("skipped", "invalid_deadline");
  // issue 17: a deadline set by a manager must be in the future (the server's clock); an empty one takes the job's
  // responseDays (the candidates create hook)
  if (deadline !== "" && deadline <= nowMs(app)) return result("skipped", "past_deadline");
  const candidate = new Record(app.findCachedCollectionByNameOrId("candidates"));
  candidate.set("job", job.id);
  candidate.set("email", email);
  candidate.set("firstName", firstName);
  candidate.set("lastName", lastName);
  if (deadline !== "") candidate.set("deadline", dbTime(deadline));
  // a line break in a name: the save would refuse it (single_line.go); said before the address's budget is spent
  if ($screenroomSingleLineErrors(candidate).length > 0) return result("skipped", "multi_line");
  const existing = app.countRecords("candidates", $dbx.hashExp({ job: job.id, email: email }));
  if (existing > 0) return result("skipped", "already_invited");
  if (allowance.left <= 0) return result("failed", "hourly_cap");
  allowance.left -= 1;
  if (!takeMailBudget(app, email, "invite")) {
    allowance.left += 1;
    return result("failed", "too_many_mails");
  }
  try {
    // the save runs the candidates hooks: key, default deadline, the duplicate check, and the queued interview e-mail
    app.save(candidate);
    return { status: "created", candidate: candidate.id };
  } catch (err) {
    allowance.left += 1;
    const text = String(err);
    if (text.indexOf("validation_not_unique") !== -1 || text.indexOf("already been invited") !== -1) return result("skipped", "already_invited");
    app.logger().error("csv invite: a row failed", "job", job.id, "error", text);
    return result("failed", "error");
  }
}

module.exports = { MAX_ROWS, IMPORT_ID, REASONS, registerImport, forgetImport, inviteRow, parseDeadline };
