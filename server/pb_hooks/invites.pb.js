/// <reference path="../../.cache/pocketbase/types.d.ts" />
// Rule 3: one pending invite per company and e-mail, never for a current manager, and the invite
// e-mail goes out once the invite is stored. Rule 4: accepting is one transaction.

// The invite e-mail goes to an address of the manager's choosing: within that address's budget (lib/throttle.js).
onRecordCreateRequest((e) => {
  if (!e.hasSuperuserAuth()) {
    const { normalizeEmail } = require(`${__hooks}/lib/util.js`);
    require(`${__hooks}/lib/throttle.js`).requireMailBudget(e.app, normalizeEmail(e.record.getString("email")), "email");
  }
  e.next();
}, "manager_invites");

onRecordCreate((e) => {
  const { normalizeEmail } = require(`${__hooks}/lib/util.js`);
  e.record.set("email", normalizeEmail(e.record.getString("email")));
  // The key of the sign-up link (pb_migrations/1732700300_invite_key.js) is the server's own, never one a client sent:
  // a manager who chose it could sign up, verified, as anyone they invite.
  e.record.set("secret", $security.randomStringWithAlphabet(40, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"));
  e.next();
}, "manager_invites");

onRecordValidate((e) => {
  const { fieldError, findByIdOrNull, findFirstOrNull, isManager, refuseDuplicate } = require(`${__hooks}/lib/util.js`);
  const email = e.record.getString("email");
  const company = findByIdOrNull(e.app, "companies", e.record.getString("company"));
  if (company && email) {
    const user = findFirstOrNull(e.app, "users", "email = {:email}", { email: email });
    if (user && isManager(company, user.id)) {
      throw fieldError("email", "This person is already a manager of this company", "validation_already_manager");
    }
    refuseDuplicate(e.app, e.record, "manager_invites", { company: company.id, email: email }, "email", "This person has already been invited");
  }
  e.next();
}, "manager_invites");

onRecordAfterCreateSuccess((e) => {
  const { appUrl, escapeHtml, sendMail } = require(`${__hooks}/lib/util.js`);
  const company = e.app.findRecordById("companies", e.record.getString("company"));
  const email = e.record.getString("email");
  const base = appUrl(e.app);
  // Both links carry the invite's key (only this mailbox gets it): the sign-up link as its `invite`, which verifies
  // the new account (rule 5), and the accept link for its own 'Sign up' button; the accept link names the invite by id.
  const key = e.record.getString("secret");
  const acceptUrl = `${base}/invites/${e.record.id}/${encodeURIComponent(email)}?key=${key}`;
  const signUpUrl = `${base}/auth/sign-up?invite=${key}&email=${encodeURIComponent(email)}`;
  const name = escapeHtml(company.getString("name"));
  sendMail(
    e.app,
    email,
    `You're invited to manage ${company.getString("name")} on Screenroom`,
    `<p>Hello,</p><p>You have been invited to join <strong>${name}</strong> as a manager on Screenroom.</p>` +
      `<p><a href="${escapeHtml(acceptUrl)}">Accept the invite</a> if you already have a Screenroom account.</p>` +
      `<p>New to Screenroom? <a href="${escapeHtml(signUpUrl)}">Sign up with this invite</a>.</p>` +
      `<p>The Screenroom team</p>`,
  );
  e.next();
}, "manager_invites");

// POST /api/screenroom/invites/{id}/accept: the signed-in, verified invitee joins the company (rule 4).
routerAdd(
  "POST",
  "/api/screenroom/invites/{id}/accept",
  (e) => {
    const { normalizeEmail, requestUser, findByIdOrNull, runRefusable } = require(`${__hooks}/lib/util.js`);
    const user = requestUser(e);
    if (!user) throw new UnauthorizedError("Please sign in to accept the invite.");
    // Issue 13: only an address the account has proved accepts its invites (a token issued before the account
    // became unverified still authenticates, so the sign-in refusal alone is not enough).
    if (!user.verified()) throw new ForbiddenError("Please confirm your e-mail first.");
    const inviteId = e.request.pathValue("id");
    let companyId = "";
    runRefusable(e.app, (txApp, refuse) => {
      const invite = findByIdOrNull(txApp, "manager_invites", inviteId);
      if (!invite || normalizeEmail(invite.getString("email")) !== normalizeEmail(user.email())) {
        refuse(new NotFoundError("This invitation is no longer valid"));
      }
      companyId = invite.getString("company");
      const company = txApp.findRecordById("companies", companyId);
      company.set("managers+", user.id);
      txApp.save(company);
      txApp.delete(invite);
      const fresh = txApp.findRecordById("users", user.id);
      if (!fresh.getString("primaryCompany")) {
        fresh.set("primaryCompany", companyId);
        txApp.save(fresh);
      }
    });
    return e.json(200, { company: companyId });
  },
  $apis.requireAuth("users"),
);
