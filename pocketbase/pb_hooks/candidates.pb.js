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
