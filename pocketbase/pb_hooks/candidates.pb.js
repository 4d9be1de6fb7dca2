/// <reference path="../../.cache/pocketbase/types.d.ts" />
// Rule 6: one candidate per job and e-mail; the interview e-mail goes out once the candidate is stored.
// (That the inviter manages the job's company is the create rule.)

onRecordCreate((e) => {
  const { normalizeEmail } = require(`${__hooks}/lib/util.js`);
  e.record.set("email", normalizeEmail(e.record.getString("email")));
  e.next();
}, "candidates");

onRecordValidate((e) => {
  const { fieldError, findFirstOrNull } = require(`${__hooks}/lib/util.js`);
  const existing = findFirstOrNull(e.app, "candidates", "job = {:job} && email = {:email} && id != {:id}", {
    job: e.record.getString("job"),
    email: e.record.getString("email"),
    id: e.record.id,
  });
  if (existing) throw fieldError("email", "This candidate has already been invited", "validation_not_unique");
  e.next();
}, "candidates");

onRecordAfterCreateSuccess((e) => {
  const { appUrl, escapeHtml, sendMail } = require(`${__hooks}/lib/util.js`);
  const job = e.app.findRecordById("jobs", e.record.getString("job"));
  const company = e.app.findRecordById("companies", job.getString("company"));
  const link = `${appUrl(e.app)}/candidates/${e.record.id}`;
  const companyName = company.getString("name");
  const jobTitle = job.getString("title");
  sendMail(
    e.app,
    e.record.getString("email"),
    `Your interview for ${jobTitle} at ${companyName}`,
    `<p>Hello,</p><p><strong>${escapeHtml(companyName)}</strong> invites you to a video interview for the ` +
      `<strong>${escapeHtml(jobTitle)}</strong> position.</p>` +
      `<p>Answer the questions in your own time, on any device with a camera: ` +
      `<a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>` +
      `<p>If your connection drops, open the same link again: your interview resumes where you left it.</p>` +
      `<p>Good luck!<br>The Screenroom team</p>`,
  );
  e.next();
}, "candidates");
