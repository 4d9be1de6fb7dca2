/// <reference path="../../../.cache/pocketbase/types.d.ts" />
// The e-mails the server sends on its own about a candidate's interview (issue 17 point 5): the reminders before the
// deadline (the cron of reminders.pb.js) and, once the candidate has answered every question, the receipt to the
// candidate and the notice to the job's company's managers (completion-mails.pb.js).
//
// Each is sent at most once: a conditional UPDATE stamps the candidate (remindedEarlyAt, remindedLateAt,
// completionMailedAt) only while the stamp is empty and the candidate still qualifies, and only the writer whose
// UPDATE changed the row sends. Two cron runs, or two answers finishing together, can never both send. The stamp and
// the e-mail are written in one transaction to the mail queue (mail_queue, sent by pocketbase/mail_queue.go at a
// steady pace with retries): the answer's request or the cron run never waits on SMTP, and a mail server that fails
// delays the e-mail rather than losing it.
//
// None of them draws from the per-address mail budget of lib/throttle.js: that budget stops a client from making the
// product mail one address over and over (invites, links sent again, resets). These are fixed in number per candidate
// (two reminders, one receipt, one notice per manager), caused by the server's clock or the candidate's own last
// answer, and no request can repeat them; drawn from the budget, a reminder would silently go missing whenever a
// manager had just sent the candidate a new link.

const HOUR_MS = 60 * 60 * 1000;

/**
 * The two reminders. A candidate is due one when its deadline is at most `before` away and more than `until` away,
 * and it was invited more than `before` ahead of the deadline (someone invited 10 hours before it gets only the
 * 4-hour one: a "48 hours left" e-mail would arrive with the invite). The windows do not overlap, and once a
 * deadline is nearer than 4 hours the early one is never sent late.
 */
const REMINDERS = [
  { kind: "early", field: "remindedEarlyAt", before: 48 * HOUR_MS, until: 4 * HOUR_MS },
  { kind: "late", field: "remindedLateAt", before: 4 * HOUR_MS, until: 0 },
];

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/** "24 November 2026 at 13:00 UTC": the day as the closed page says it, with the time, in UTC for everyone. */
function deadlineText(ms) {
  const d = new Date(ms);
  const pad = (n) => (n < 10 ? "0" : "") + n;
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} at ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())} UTC`;
}

// Still open for the candidate: not withdrawn, not completed (status is kept by lib/pipeline.js), and its job not
// closed (issue 19: a closed job's link shows the closed page, so no reminder points at it).
const STILL_OPEN =
  "withdrawn = FALSE AND COALESCE(status, '') != 'completed' AND NOT EXISTS (SELECT 1 FROM jobs cj WHERE cj.id = candidates.job AND COALESCE(cj.closedAt, '') != '')";

/** The candidates due `reminder` at `nowMs`: { id, deadline } rows. */
function dueFor(app, reminder, nowMs) {
  const { dbTime, parseDbTime } = require(`${__hooks}/lib/clock.js`);
  const rows = arrayOf(new DynamicModel({ id: "", deadline: "", created: "" }));
  app
    .db()
    .newQuery(
      `SELECT id, deadline, created FROM candidates
       WHERE deadline > {:after} AND deadline <= {:upTo} AND COALESCE(${reminder.field}, '') = '' AND ${STILL_OPEN}`,
    )
    .bind({ after: dbTime(nowMs + reminder.until), upTo: dbTime(nowMs + reminder.before) })
    .all(rows);
  return rows.filter((row) => parseDbTime(row.deadline) - parseDbTime(row.created) > reminder.before);
}

/**
 * Stamps `field` of candidate `id` with `now` if nobody has, the deadline is still the one the reminder was chosen
 * for and the candidate is still open; true when this call stamped it (and so sends).
 */
function stampReminder(app, reminder, id, deadline, now) {
  const result = app
    .db()
    .newQuery(
      `UPDATE candidates SET ${reminder.field} = {:now}
       WHERE id = {:id} AND deadline = {:deadline} AND COALESCE(${reminder.field}, '') = '' AND ${STILL_OPEN}`,
    )
    .bind({ id: id, deadline: deadline, now: now })
    .execute();
  return result.rowsAffected() === 1;
}

function reminderMail(app, reminder, candidate) {
  const { escapeHtml, interviewMailContext } = require(`${__hooks}/lib/util.js`);
  const { parseDbTime } = require(`${__hooks}/lib/clock.js`);
  const { link, companyName, jobTitle } = interviewMailContext(app, candidate);
  const when = deadlineText(parseDbTime(candidate.getString("deadline")));
  const job = `<strong>${escapeHtml(jobTitle)}</strong>`;
  const company = `<strong>${escapeHtml(companyName)}</strong>`;
  const started = candidate.getString("status") === "started";
  const subject =
    reminder.kind === "early"
      ? `Reminder: your interview for ${jobTitle} at ${companyName}`
      : `Your interview for ${jobTitle} at ${companyName} closes in a few hours`;
  const html =
    `<p>Hello,</p>` +
    (reminder.kind === "early"
      ? `<p>This is a friendly reminder that your video interview for the ${job} position at ${company} is still waiting for you.</p>`
      : `<p>Your video interview for the ${job} position at ${company} closes in a few hours.</p>`) +
    `<p>Please send your answers by <strong>${escapeHtml(when)}</strong>. After that, the link no longer accepts answers.</p>` +
    (started ? `<p>You have already answered some of the questions: the link takes you back to where you left off.</p>` : "") +
    `<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>` +
    `<p>Good luck!<br>The Screenroom team</p>`;
  return { subject, html };
}

/**
 * One run of the reminders (the cron `screenroom_reminders`): every due candidate is stamped and mailed once.
 * Returns how many of each were sent.
 */
function sendDueReminders(app) {
  const { nowMs, dbTime } = require(`${__hooks}/lib/clock.js`);
  const { findByIdOrNull, queueMail } = require(`${__hooks}/lib/util.js`);
  const now = nowMs(app);
  const sent = { early: 0, late: 0 };
  for (const reminder of REMINDERS) {
    for (const row of dueFor(app, reminder, now)) {
      try {
        let queued = false;
        app.runInTransaction((tx) => {
          if (!stampReminder(tx, reminder, row.id, row.deadline, dbTime(now))) return;
          const candidate = findByIdOrNull(tx, "candidates", row.id);
          if (!candidate) return;
          const { subject, html } = reminderMail(tx, reminder, candidate);
          queueMail(tx, { to: candidate.getString("email"), subject, html, candidate: candidate.id });
          queued = true;
        });
        if (queued) sent[reminder.kind] += 1;
      } catch (err) {
        // one broken candidate (its job deleted meanwhile) does not stop the others' reminders
        app.logger().error("reminder failed", "candidate", row.id, "kind", reminder.kind, "error", String(err));
      }
    }
  }
  return sent;
}

/** The review screen of a candidate in the SPA: paths.companies.jobs.candidate of src/config/paths.ts. */
function reviewLink(app, company, job, candidate) {
  const { appUrl } = require(`${__hooks}/lib/util.js`);
  const seg = encodeURIComponent;
  return `${appUrl(app)}/companies/${seg(company.id)}/jobs/${seg(job.id)}/candidates/${seg(candidate.id)}`;
}

/** The profile screen, where a manager turns the completion e-mails off: paths.preferences.profile. */
function profileLink(app) {
  return `${require(`${__hooks}/lib/util.js`).appUrl(app)}/preferences/profile`;
}

function receiptMail(companyName, jobTitle) {
  const { escapeHtml } = require(`${__hooks}/lib/util.js`);
  return {
    subject: `We received your answers for ${jobTitle} at ${companyName}`,
    html:
      `<p>Hello,</p>` +
      `<p>Thank you for completing your video interview for the <strong>${escapeHtml(jobTitle)}</strong> position at <strong>${escapeHtml(companyName)}</strong>. We received all your answers.</p>` +
      `<p>There is nothing else you need to do. The team at ${escapeHtml(companyName)} will now review your answers.</p>` +
      `<p>Best wishes,<br>The Screenroom team</p>`,
  };
}

function noticeMail(app, manager, candidate, ctx) {
  const { escapeHtml } = require(`${__hooks}/lib/util.js`);
  const email = candidate.getString("email");
  const review = reviewLink(app, ctx.company, ctx.job, candidate);
  const profile = profileLink(app);
  return {
    subject: `${email} finished the interview for ${ctx.jobTitle}`,
    html:
      `<p>Hello ${escapeHtml(manager.getString("firstName"))},</p>` +
      `<p><strong>${escapeHtml(email)}</strong> answered all the questions of the interview for <strong>${escapeHtml(ctx.jobTitle)}</strong> at <strong>${escapeHtml(ctx.companyName)}</strong>.</p>` +
      `<p><a href="${escapeHtml(review)}">Review the answers</a></p>` +
      `<p>You receive this e-mail because you manage ${escapeHtml(ctx.companyName)}. You can turn these e-mails off in your <a href="${escapeHtml(profile)}">profile</a>.</p>` +
      `<p>The Screenroom team</p>`,
  };
}

/**
 * The completion e-mails of candidate `candidateId` if it is completed and nobody sent them yet: the receipt to the
 * candidate and a notice to each manager of the job's company who has not turned them off. Outside any transaction
 * (after the answer is committed). True when this call sent them.
 */
function sendCompletionMails(app, candidateId) {
  const { nowText } = require(`${__hooks}/lib/clock.js`);
  const { findByIdOrNull, interviewMailContext, queueMail } = require(`${__hooks}/lib/util.js`);
  if (!candidateId) return false;
  let queued = false;
  app.runInTransaction((tx) => {
    const stamped = tx
      .db()
      .newQuery(
        `UPDATE candidates SET completionMailedAt = {:now}
         WHERE id = {:id} AND status = 'completed' AND COALESCE(completionMailedAt, '') = ''`,
      )
      .bind({ id: candidateId, now: nowText(tx) })
      .execute();
    if (stamped.rowsAffected() !== 1) return;
    const candidate = findByIdOrNull(tx, "candidates", candidateId);
    if (!candidate) return;
    const ctx = interviewMailContext(tx, candidate);
    const receipt = receiptMail(ctx.companyName, ctx.jobTitle);
    queueMail(tx, { to: candidate.getString("email"), subject: receipt.subject, html: receipt.html, candidate: candidate.id });
    queued = true;
    const managerIds = ctx.company.getStringSlice("managers");
    if (!managerIds.length) return;
    for (const manager of tx.findRecordsByIds("users", managerIds)) {
      if (manager.getBool("completionMailsOff")) continue;
      const notice = noticeMail(tx, manager, candidate, ctx);
      // the notice names the candidate: it goes with them (erasure, retention, deletion) as their own e-mails do
      queueMail(tx, { to: manager.email(), subject: notice.subject, html: notice.html, candidate: candidate.id });
    }
  });
  return queued;
}

/** The completed candidates of job `jobId` whose completion e-mails are not sent (after its questions changed). */
function sendJobCompletionMails(app, jobId) {
  const rows = arrayOf(new DynamicModel({ id: "" }));
  app
    .db()
    .newQuery("SELECT id FROM candidates WHERE job = {:job} AND status = 'completed' AND COALESCE(completionMailedAt, '') = ''")
    .bind({ job: jobId })
    .all(rows);
  for (const row of rows) sendCompletionMails(app, row.id);
}

module.exports = { REMINDERS, deadlineText, sendDueReminders, sendCompletionMails, sendJobCompletionMails };
