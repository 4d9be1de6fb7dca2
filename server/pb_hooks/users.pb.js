/// <reference path="../../.cache/pocketbase/types.d.ts" />
// Users: e-mails stored lower-cased (decisions.md), primaryCompany only a managed company (rule 2),
// sign-up through a manager invite (rule 5), fellow managers see names, e-mail and avatar only, and an unverified
// account does not sign in (issue 13).

onRecordCreate((e) => {
  const { normalizeEmail } = require(`${__hooks}/lib/util.js`);
  e.record.setEmail(normalizeEmail(e.record.email()));
  e.next();
}, "users");

onRecordUpdate((e) => {
  const { normalizeEmail } = require(`${__hooks}/lib/util.js`);
  e.record.setEmail(normalizeEmail(e.record.email()));
  e.next();
}, "users");

// Rule 2: primaryCompany may only point at a company the user manages (or be empty).
onRecordValidate((e) => {
  const { fieldError, findByIdOrNull, isManager } = require(`${__hooks}/lib/util.js`);
  const companyId = e.record.getString("primaryCompany");
  if (companyId) {
    const company = findByIdOrNull(e.app, "companies", companyId);
    if (!company || !isManager(company, e.record.id)) {
      throw fieldError("primaryCompany", "You can only choose a company you manage.");
    }
  }
  e.next();
}, "users");

// Rule 5: sign-up with an invite. The invite must exist and match the e-mail; then the new user joins
// the company, the invite is deleted, and the account is verified, all in the sign-up's transaction.
// `invite` is the invite's key, which only its e-mail carries (pb_migrations/1732700300_invite_key.js), never its id:
// the id reaches others (its company's managers, filter oracles), and the sign-up verifies the address.
onRecordCreateRequest((e) => {
  const { normalizeEmail, findFirstOrNull } = require(`${__hooks}/lib/util.js`);
  const body = e.requestInfo().body || {};
  const inviteKey = String(body.invite || "").trim();
  if (!inviteKey) {
    e.next();
    return;
  }
  const email = normalizeEmail(e.record.email());
  const invite = /^[a-zA-Z0-9]{40}$/.test(inviteKey)
    ? findFirstOrNull(e.app, "manager_invites", "secret = {:key}", { key: inviteKey })
    : null;
  if (!invite || normalizeEmail(invite.getString("email")) !== email) {
    throw new BadRequestError("This invitation is no longer valid");
  }
  const inviteId = invite.id;
  const key = "signupInvite:" + email;
  e.app.store().set(key, inviteId);
  try {
    require(`${__hooks}/lib/util.js`).runRefusable(e.app, (txApp) => {
      e.app = txApp;
      e.next();
    });
  } finally {
    e.app.store().remove(key);
  }
}, "users");

// Runs inside the sign-up's save (after validation, before the insert), so the response already shows
// verified and primaryCompany, and a failure here rolls the whole sign-up back.
onRecordCreateExecute((e) => {
  const { normalizeEmail, findByIdOrNull } = require(`${__hooks}/lib/util.js`);
  const email = normalizeEmail(e.record.email());
  const inviteId = e.app.store().get("signupInvite:" + email);
  if (!inviteId) {
    e.next();
    return;
  }
  const invite = findByIdOrNull(e.app, "manager_invites", inviteId);
  if (!invite) throw new BadRequestError("This invitation is no longer valid");
  const companyId = invite.getString("company");
  e.record.setVerified(true);
  e.record.set("primaryCompany", companyId);
  e.next();

  const company = e.app.findRecordById("companies", companyId);
  company.set("managers+", e.record.id);
  e.app.save(company);
  e.app.delete(invite);
}, "users");

// Fellow managers see name, e-mail and avatar; only the user sees their own primaryCompany and preferences: the
// Go main hides them (pocketbase/users_enrich.go).

// Issue 13: an unverified account does not sign in (the users authRule `verified = true`, which also refuses its
// auth-refresh). The refusal says why, 'Please confirm your e-mail first', but only to whoever knows the password:
// a wrong one gets PocketBase's own 400 'Failed to authenticate.', as for an unknown address, after one password
// check as well, so neither the answer nor its timing tells whether an unverified account exists.
onRecordAuthWithPasswordRequest((e) => {
  const record = e.record;
  if (record && !record.verified()) {
    if (!record.validatePassword(e.password)) throw new BadRequestError("Failed to authenticate.");
    throw new ForbiddenError("Please confirm your e-mail first.");
  }
  e.next();
}, "users");

onRecordAuthRefreshRequest((e) => {
  if (!e.record.verified()) throw new ForbiddenError("Please confirm your e-mail first.");
  e.next();
}, "users");

// Password reset and verification e-mails: within the address's e-mail budget (lib/throttle.js). PocketBase answers
// 204 whether or not it mails, so a spent budget answers the same and sends nothing.
onRecordRequestPasswordResetRequest((e) => {
  if (!require(`${__hooks}/lib/throttle.js`).takeMailBudget(e.app, e.record.email(), "account")) return e.noContent(204);
  e.next();
}, "users");

// Issue 16's 'Resend the e-mail': PocketBase's two-minute lock on verification requests is lifted by a Go middleware
// (pocketbase/verification_resend.go), before the request reaches this hook.
onRecordRequestVerificationRequest((e) => {
  if (!require(`${__hooks}/lib/throttle.js`).takeMailBudget(e.app, e.record.email(), "account")) return e.noContent(204);
  e.next();
}, "users");

// An e-mail change mails the new address, someone else's until it is confirmed: not for an unverified account (it
// acts on nothing but its own profile and verification), and within the new address's budget.
onRecordRequestEmailChangeRequest((e) => {
  const { requireMailBudget } = require(`${__hooks}/lib/throttle.js`);
  if (e.record && !e.record.verified()) throw new ForbiddenError("Please confirm your e-mail first.");
  requireMailBudget(e.app, String(e.newEmail || "").trim().toLowerCase(), "newEmail");
  e.next();
}, "users");
