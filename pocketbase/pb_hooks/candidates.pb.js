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
