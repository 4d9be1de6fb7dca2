/// <reference path="../../.cache/pocketbase/types.d.ts" />
// Rule 6: one candidate per job and e-mail; the interview e-mail goes out once the candidate is stored.
// (That the inviter manages the job's company is the create rule.)

onRecordCreate((e) => {
  const { normalizeEmail } = require(`${__hooks}/lib/util.js`);
  e.record.set("email", normalizeEmail(e.record.getString("email")));
  e.next();
}, "candidates");

// A changed e-mail too (rule 6's "one candidate per job and e-mail" compares stored, lower-cased e-mails).
onRecordUpdate((e) => {
  const { normalizeEmail } = require(`${__hooks}/lib/util.js`);
  e.record.set("email", normalizeEmail(e.record.getString("email")));
  e.next();
}, "candidates");

onRecordValidate((e) => {
  const { refuseDuplicate } = require(`${__hooks}/lib/util.js`);
  const values = { job: e.record.getString("job"), email: e.record.getString("email") };
  refuseDuplicate(e.app, e.record, "candidates", values, "email", "This candidate has already been invited");
  e.next();
}, "candidates");

// The key (the interview link's credential) is the server's to make: a client can neither choose nor change it.
onRecordCreateRequest((e) => {
  if (!e.hasSuperuserAuth()) {
    // issue 19: nobody is invited to a closed job (lib/job-lifecycle.js)
    require(`${__hooks}/lib/job-lifecycle.js`).requireOpenForInvites(e.app, e.record.getString("job"));
    e.record.set("secret", "");
    e.record.set("linkReplaced", false);
    // the interview e-mail goes to an address of the manager's choosing: within that address's budget (lib/throttle.js)
    const { normalizeEmail } = require(`${__hooks}/lib/util.js`);
    require(`${__hooks}/lib/throttle.js`).requireMailBudget(e.app, normalizeEmail(e.record.getString("email")), "email");
    if (e.auth) require(`${__hooks}/lib/throttle.js`).requireInviteAction(e.app, e.auth.id); // one action (a CSV import is one too)
  }
  e.next();
}, "candidates");

onRecordUpdateRequest((e) => {
  if (!e.hasSuperuserAuth()) {
    const original = e.record.original();
    e.record.set("secret", original.getString("secret"));
    // A replaced link mails the new one to the candidate's address: once a manager changed that address, it would
    // mail the key to whoever the manager chose, so the old link no longer mails anyone.
    const { normalizeEmail } = require(`${__hooks}/lib/util.js`);
    const sameEmail = normalizeEmail(e.record.getString("email")) === normalizeEmail(original.getString("email"));
    e.record.set("linkReplaced", original.getBool("linkReplaced") && sameEmail);
  }
  e.next();
}, "candidates");

onRecordAfterCreateSuccess((e) => {
  const { sendInterviewMail } = require(`${__hooks}/lib/util.js`);
  sendInterviewMail(e.app, e.record);
  e.next();
}, "candidates");

// ---- issue 17: deadline and withdrawal (lib/interview-rules.js decides what they close) ----

// A deadline a manager sets or changes must be in the future (400 on the field); a superuser's tools may set any.
onRecordCreateRequest((e) => {
  if (!e.hasSuperuserAuth()) require(`${__hooks}/lib/interview-rules.js`).refusePastDeadline(e.app, e.record);
  e.next();
}, "candidates");

onRecordUpdateRequest((e) => {
  if (!e.hasSuperuserAuth()) require(`${__hooks}/lib/interview-rules.js`).refusePastDeadline(e.app, e.record);
  e.next();
}, "candidates");

// A new invite without a deadline gets its job's default response time (jobs.responseDays, when above 0), counted
// from now on the server's clock; a withdrawn one (a superuser's import) is stamped.
onRecordCreate((e) => {
  const { findByIdOrNull } = require(`${__hooks}/lib/util.js`);
  const { dbTime, nowMs, nowText } = require(`${__hooks}/lib/clock.js`);
  if (!e.record.getString("deadline")) {
    const job = findByIdOrNull(e.app, "jobs", e.record.getString("job"));
    const days = job ? job.getInt("responseDays") : 0;
    if (days > 0) e.record.set("deadline", dbTime(nowMs(e.app) + days * 24 * 60 * 60 * 1000));
  }
  if (e.record.getBool("withdrawn") && !e.record.getString("withdrawnAt")) e.record.set("withdrawnAt", nowText(e.app));
  e.next();
}, "candidates");

// Withdrawing stamps withdrawnAt (the closed page's date), un-withdrawing clears it. A deadline moved later (or
// cleared) clears the reminder stamps, so the reminders go again before the new deadline. Set before the save's
// other hooks, which keep the server's fields a save does not change (review-workflow.pb.js).
onRecordUpdate((e) => {
  const { nowText, parseDbTime } = require(`${__hooks}/lib/clock.js`);
  const original = e.record.original();
  const withdrawn = e.record.getBool("withdrawn");
  if (withdrawn !== original.getBool("withdrawn")) e.record.set("withdrawnAt", withdrawn ? nowText(e.app) : "");
  const before = original.getString("deadline");
  const after = e.record.getString("deadline");
  if (before !== after && (!after || !before || parseDbTime(after) > parseDbTime(before))) {
    e.record.set("remindedEarlyAt", "");
    e.record.set("remindedLateAt", "");
  }
  e.next();
}, "candidates");

// ---- issue 16: resend a candidate's invitation ----

// POST /api/screenroom/candidates/{id}/resend-invite: a manager of the job's company mails the candidate's interview
// link again. 200 {sentAt}. Anyone else, and an unknown id, gets the same 404 before anything else is decided (the
// route says nothing about other companies' candidates). The mail is taken from the address's e-mail budget, shared
// with the invite itself (lib/throttle.js), so resending cannot make the product mail one address over and over:
// 429 when spent; and each manager resends at most RATE_LIMIT_INVITES in its window (429 past it). Nothing is resent that the candidate could not use: a completed interview, a withdrawn invitation,
// a closed job or a passed deadline is refused (400) with what to do instead.
routerAdd("POST", "/api/screenroom/candidates/{id}/resend-invite", (e) => {
  const { fieldError, findByIdOrNull, requestUser, sendInterviewMail } = require(`${__hooks}/lib/util.js`);
  const { nowMs, nowText, parseDbTime } = require(`${__hooks}/lib/clock.js`);
  const notFound = () => new NotFoundError("The requested resource wasn't found.");
  if (!requestUser(e)) throw notFound();
  const candidate = findByIdOrNull(e.app, "candidates", e.request.pathValue("id"));
  // the list rule, not the view rule: the view rule also lets the candidate itself read its record
  if (!candidate || !e.app.canAccessRecord(candidate, e.requestInfo(), candidate.collection().listRule)) throw notFound();

  if (candidate.getString("status") === "completed") {
    throw fieldError("candidate", "This candidate has already sent their answers: there is no invitation to resend.", "validation_completed");
  }
  if (candidate.getBool("withdrawn")) {
    throw fieldError("candidate", "This invitation was withdrawn. Restore it before sending it again.", "validation_withdrawn");
  }
  // issue 19: a closed job's link shows the closed page; sending it again would only confuse the candidate
  require(`${__hooks}/lib/job-lifecycle.js`).requireOpenForInvites(e.app, candidate.getString("job"));
  const deadline = candidate.getString("deadline");
  if (deadline && parseDbTime(deadline) <= nowMs(e.app)) {
    throw fieldError("candidate", "The deadline has passed. Extend it before sending the invitation again.", "validation_deadline_passed");
  }
  const throttle = require(`${__hooks}/lib/throttle.js`);
  throttle.requireResendBudget(e.app, requestUser(e).id);
  throttle.requireMailBudget(e.app, candidate.getString("email"), "candidate");
  sendInterviewMail(e.app, candidate, false, true);
  return e.json(200, { sentAt: nowText(e.app) });
});
