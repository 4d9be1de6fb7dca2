/// <reference path="../../.cache/pocketbase/types.d.ts" />
// Security review, issue 13 (decisions.md "Amendments after the security review"): an unverified account acts on
// nothing but its own profile and its own verification. Anyone can sign up with any address, so an account whose
// address was never proved must not see or accept that address's manager invites, nor create companies.
//
// - users.authRule `verified = true`: no sign-in, no auth-refresh, for an unverified account (pb_hooks/users.pb.js
//   gives the refusal its clear message once the password was right). The invite-link sign-up (rule 5) verifies the
//   account, so it still signs in straight away.
// - Defence in depth, for a token issued before the account became unverified (a superuser un-verifying it, an
//   e-mail change): creating a company, and the invitee's clauses of manager_invites and of the invited company's
//   view, require `@request.auth.verified = true` as well. Managers' clauses are unchanged.

const AUTH = '@request.auth.id != "" && @request.auth.collectionName = "users"';
const VERIFIED = "@request.auth.verified = true";
const manages = (path) => `${AUTH} && ${path}.id ?= @request.auth.id`;

const INVITEE_OWN = `${AUTH} && email = @request.auth.email`;
const INVITEE_OWN_VERIFIED = `${AUTH} && ${VERIFIED} && email = @request.auth.email`;

// The invitee's clause of the companies view rule (pb_migrations/1732000000_init_schema.js). Replaced in place, so
// the rule's other clauses (managers, candidates) stay whatever other migrations made them.
const INVITED_COMPANY = "manager_invites_via_company.email ?= @request.auth.email";
const INVITED_COMPANY_VERIFIED = `${VERIFIED} && ${INVITED_COMPANY}`;

function replaceClause(rule, from, to, what) {
  const text = String(rule || "");
  if (text.indexOf(from) === -1) {
    throw new Error(`${what} has no clause "${from}" to change: update this migration to the rule as it now is`);
  }
  return text.split(from).join(to);
}

migrate(
  (app) => {
    const users = app.findCollectionByNameOrId("users");
    users.authRule = "verified = true";
    app.save(users);

    const companies = app.findCollectionByNameOrId("companies");
    companies.createRule = `${AUTH} && ${VERIFIED}`;
    companies.viewRule = replaceClause(companies.viewRule, INVITED_COMPANY, INVITED_COMPANY_VERIFIED, "companies.viewRule");
    app.save(companies);

    const invites = app.findCollectionByNameOrId("manager_invites");
    invites.listRule = `(${manages("company.managers")}) || (${INVITEE_OWN_VERIFIED})`;
    invites.viewRule = invites.listRule;
    invites.deleteRule = invites.listRule;
    app.save(invites);
  },
  (app) => {
    const users = app.findCollectionByNameOrId("users");
    users.authRule = "";
    app.save(users);

    const companies = app.findCollectionByNameOrId("companies");
    companies.createRule = AUTH;
    companies.viewRule = replaceClause(companies.viewRule, INVITED_COMPANY_VERIFIED, INVITED_COMPANY, "companies.viewRule");
    app.save(companies);

    const invites = app.findCollectionByNameOrId("manager_invites");
    invites.listRule = `(${manages("company.managers")}) || (${INVITEE_OWN})`;
    invites.viewRule = invites.listRule;
    invites.deleteRule = invites.listRule;
    app.save(invites);
  },
);
