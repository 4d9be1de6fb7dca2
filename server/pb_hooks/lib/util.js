/// <reference path="../../../.cache/pocketbase/types.d.ts" />
// Shared helpers for the hooks. Each hook handler runs in its own scope, so handlers load this with
// require(`${__hooks}/lib/util.js`).

function normalizeEmail(value) {
  return String(value || "").trim().toLowerCase();
}

function escapeHtml(value) {
  return String(value == null ? "" : value)
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

/** A 400 whose message also sits on one field, as the SPA maps response.data[field] to its form. */
function fieldError(field, message, code) {
  const data = {};
  data[field] = new ValidationError(code || "validation_invalid", message);
  return new BadRequestError(message, data);
}

function appUrl(app) {
  return String(app.settings().meta.appURL || "").replace(/\/+$/, "");
}

function isManager(company, userId) {
  return !!userId && company.getStringSlice("managers").indexOf(userId) !== -1;
}

/** The signed-in product user of a request (not a superuser), or null. */
function requestUser(e) {
  const auth = e.auth;
  if (!auth || auth.collection().name !== "users") return null;
  return auth;
}

function findFirstOrNull(app, collection, filter, params) {
  try {
    return app.findFirstRecordByFilter(collection, filter, params || {});
  } catch (_) {
    return null;
  }
}

function findByIdOrNull(app, collection, id) {
  if (!id) return null;
  try {
    return app.findRecordById(collection, id);
  } catch (_) {
    return null;
  }
}

/** "video", "text" or "" when the question has no kind record. */
function questionKind(app, questionId) {
  if (findFirstOrNull(app, "video_questions", "question = {:q}", { q: questionId })) return "video";
  if (findFirstOrNull(app, "text_questions", "question = {:q}", { q: questionId })) return "text";
  return "";
}

/** The job's questions in the job's order (the order of its `questions` field). */
function jobQuestions(app, job) {
  const ids = job.getStringSlice("questions");
  if (!ids.length) return [];
  const byId = {};
  for (const question of app.findRecordsByIds("questions", ids)) byId[question.id] = question;
  return ids.map((id) => byId[id]).filter(Boolean);
}

/**
 * The kind record of each of `ownerIds`, looked up in the kind collections `names` by their relation `field`
 * (questions: video_questions / text_questions by "question"; answers: video_answers / text_answers by "answer"):
 * { [ownerId]: { name, record } }.
 */
function kindsOf(app, names, field, ownerIds) {
  const found = {};
  if (!ownerIds.length) return found;
  for (const name of names) {
    for (const record of app.findAllRecords(name, $dbx.in(field, ...ownerIds))) {
      found[record.getString(field)] = { name: name, record: record };
    }
  }
  return found;
}

/**
 * app.runInTransaction(fn) where fn may refuse: `fn(txApp, refuse)`; `refuse(err)` rolls the transaction back and the
 * call throws `err` itself (an error thrown through runInTransaction reaches the caller wrapped, its status lost).
 */
function runRefusable(app, fn) {
  let refusal = null;
  const refuse = (err) => {
    refusal = err;
    throw err;
  };
  try {
    app.runInTransaction((txApp) => fn(txApp, refuse));
  } catch (err) {
    throw refusal || err;
  }
}

/**
 * A decision that needs the saved record but must never commit: `fn(txApp)` runs in a transaction that is always
 * rolled back, and its result is returned (an error it throws is thrown, as runRefusable would).
 */
function runRolledBack(app, fn) {
  const rollback = new Error("rollback");
  let result;
  try {
    runRefusable(app, (txApp, refuse) => {
      result = fn(txApp);
      refuse(rollback);
    });
  } catch (err) {
    if (err !== rollback) throw err;
  }
  return result;
}

/** A new video answer holds nothing the media worker derives from its file (only the worker, a superuser, writes it). */
function clearDerivedVideoFields(record) {
  // the type is the server's to derive from the stored file (answers.pb.js), never what a client sent
  record.set("mimeType", "");
  record.set("transcript", "");
  record.set("transcriptStatus", ""); // pending, by the video_answers create hook (answers.pb.js)
  record.set("transcriptAttempts", 0);
  record.set("durationSeconds", 0);
}

/** The header that carries a candidate's key (the `secret` of its record; the rules read `x_candidate_key`). */
const CANDIDATE_KEY_HEADER = "X-Candidate-Key";

/** A candidate's key is 40 letters and digits (migration 1732700000_candidate_key.js). */
function isCandidateKey(value) {
  return /^[a-zA-Z0-9]{40}$/.test(String(value || ""));
}

/** The candidate whose key the request presents, or null. */
function requestCandidate(e) {
  const key = String(e.request.header.get(CANDIDATE_KEY_HEADER) || "");
  return isCandidateKey(key) ? findFirstOrNull(e.app, "candidates", "secret = {:key}", { key: key }) : null;
}

/** The interview link a candidate is sent: its key, never its record id. */
function interviewLink(app, candidate) {
  return `${appUrl(app)}/candidates/${candidate.getString("secret")}`;
}

/**
 * What every e-mail about a candidate's interview names: its job, the job's company and the candidate's link
 * (the interview e-mail here; its Go twin is server/internal/mail/interview_mail.go).
 */
function interviewMailContext(app, candidate) {
  const job = app.findRecordById("jobs", candidate.getString("job"));
  const company = app.findRecordById("companies", job.getString("company"));
  return { job, company, companyName: company.getString("name"), jobTitle: job.getString("title"), link: interviewLink(app, candidate) };
}

/**
 * The interview e-mail's content (business rule 6), with the candidate's link; `again` for a link sent anew,
 * `resent` for the same invitation sent again by a manager (issue 16). One content for the single invite, the CSV
 * import, a replaced link and a resend: { to, subject, html, text }.
 */
function interviewMailContent(app, candidate, again, resent) {
  const { link, companyName, jobTitle } = interviewMailContext(app, candidate);
  const name = candidate.getString("firstName");
  const hello = name ? `Hello ${name},` : "Hello,";
  const html =
    `<p>${escapeHtml(hello)}</p>` +
    (again
      ? `<p>Your interview link for the <strong>${escapeHtml(jobTitle)}</strong> position at <strong>${escapeHtml(companyName)}</strong> has changed. This is your new link:</p>`
      : (resent ? `<p>A reminder of your invitation:</p>` : "") +
        `<p><strong>${escapeHtml(companyName)}</strong> invites you to a video interview for the <strong>${escapeHtml(jobTitle)}</strong> position.</p>` +
        `<p>Answer the questions in your own time, on any device with a camera:</p>`) +
    `<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>` +
    `<p>If your connection drops, open the same link again: your interview resumes where you left it.</p>` +
    `<p>Good luck!<br>The Screenroom team</p>`;
  const text =
    `${hello}\n\n` +
    (again
      ? `Your interview link for the ${jobTitle} position at ${companyName} has changed. This is your new link:\n\n`
      : (resent ? "A reminder of your invitation:\n\n" : "") +
        `${companyName} invites you to a video interview for the ${jobTitle} position.\n\nAnswer the questions in your own time, on any device with a camera:\n\n`) +
    `${link}\n\n` +
    `If your connection drops, open the same link again: your interview resumes where you left it.\n\n` +
    `Good luck!\nThe Screenroom team\n`;
  return { to: candidate.getString("email"), subject: `Your interview for ${jobTitle} at ${companyName}`, html, text };
}

/**
 * Queues one e-mail in `mail_queue`, sent by the Go main at a steady pace with retries (pocketbase/mail_queue.go):
 * the request that caused it never waits on SMTP, and an SMTP error is retried instead of lost. Written with `app`,
 * so inside a transaction it commits (or rolls back) with the record it is about.
 */
function queueMail(app, message) {
  const record = new Record(app.findCachedCollectionByNameOrId("mail_queue"));
  record.set("to", message.to);
  record.set("subject", message.subject);
  record.set("html", message.html);
  record.set("text", message.text || "");
  record.set("status", "pending");
  record.set("attempts", 0);
  // the candidate it is about, if any: their e-mails go with them (erasure, retention, deletion)
  if (message.candidate) record.set("candidate", message.candidate);
  app.save(record);
  return record;
}

/**
 * The interview e-mail, queued (single invites, CSV imports and resends alike: README "Mail queue"); `again` for a
 * link sent anew, `resent` for a manager's resend. A failure to queue is logged, never fails the request that caused
 * it (as sendMail).
 */
function sendInterviewMail(app, candidate, again, resent) {
  try {
    queueMail(app, Object.assign(interviewMailContent(app, candidate, again, resent), { candidate: candidate.id }));
  } catch (err) {
    app.logger().error("queueing the interview mail failed", "candidate", candidate.id, "error", String(err));
  }
}

/**
 * The product's words for a record that a UNIQUE index of the migrations would refuse anyway (with PocketBase's
 * generic "Value must be unique"): a field error on `field` when another record of `collection` has the same
 * `values` (field name → value). The index stays the guarantee; this is only the message.
 */
function refuseDuplicate(app, record, collection, values, field, message) {
  const names = Object.keys(values);
  const filter = names.map((name) => `${name} = {:${name}}`).join(" && ") + " && id != {:self}";
  const params = Object.assign({ self: record.id }, values);
  if (findFirstOrNull(app, collection, filter, params)) throw fieldError(field, message, "validation_not_unique");
}

/**
 * Whether the request may create `answer` (saved, not yet committed, inside `txApp`'s transaction: the answers create
 * rule sees the saved record, joins included). The one check of both the answers route and a take's first part.
 */
/** Issue 17: nothing is recorded before the candidate agreed on the start screen (candidates.consentedAt). */
const CONSENT_REQUIRED = "Please agree to the terms on the start page before answering.";
function requireConsent(candidate) {
  if (!candidate.getString("consentedAt")) throw new ForbiddenError(CONSENT_REQUIRED);
}

function canCreateAnswer(txApp, info, answer) {
  return txApp.canAccessRecord(answer, info, txApp.findCollectionByNameOrId("answers").createRule);
}

module.exports = {
  CONSENT_REQUIRED,
  requireConsent,
  runRolledBack,
  canCreateAnswer,
  refuseDuplicate,
  sendInterviewMail,
  CANDIDATE_KEY_HEADER,
  isCandidateKey,
  requestCandidate,
  interviewLink,
  normalizeEmail,
  fieldError,
  appUrl,
  isManager,
  requestUser,
  findFirstOrNull,
  findByIdOrNull,
  questionKind,
  jobQuestions,
  kindsOf,
  runRefusable,
  clearDerivedVideoFields,
};
