/// <reference path="../../.cache/pocketbase/types.d.ts" />
// Issue 13: a manager invite's sign-up link verifies the new account (rule 5: the link proved the address), so what it
// carries must be readable by nobody but the invited mailbox. The invite id is not: the all-match filter operators
// (`>=`, `!=`, `!~`...) evaluate related rows without their rules, so anyone who shares a company with one of the
// company's managers could binary-search it through `users?filter=companies_via_managers.manager_invites_via_company.id
// >= '…'`, and the company's managers list it. With it and the e-mail anyone could sign up as the invitee, verified,
// and manage the company.
//
// The sign-up link now carries a random key in a hidden field: no filter, sort or expand of anyone but a superuser
// reaches it, managers do not see it, and the hooks make it (pb_hooks/invites.pb.js). Sign-up with `invite` takes
// the key (pb_hooks/users.pb.js); the invite id still names the invite for its managers and its verified invitee.
// Invites already e-mailed get a key now: their accept links (by id) keep working for the verified invitee, their
// sign-up links (by id) are refused as no longer valid, and the invitee signs up and confirms the address instead.

const ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

migrate(
  (app) => {
    const invites = app.findCollectionByNameOrId("manager_invites");
    // 40 characters of 62: 238 random bits
    invites.fields.add(
      new TextField({ name: "secret", hidden: true, required: true, min: 40, max: 40, pattern: "^[a-zA-Z0-9]{40}$", autogeneratePattern: "[a-zA-Z0-9]{40}" }),
    );
    app.save(invites);

    for (const invite of app.findAllRecords("manager_invites")) {
      invite.set("secret", $security.randomStringWithAlphabet(40, ALPHABET));
      app.saveNoValidate(invite);
    }

    invites.addIndex("idx_manager_invites_secret", true, "secret", "");
    app.save(invites);
  },
  (app) => {
    const invites = app.findCollectionByNameOrId("manager_invites");
    invites.removeIndex("idx_manager_invites_secret");
    invites.fields.removeByName("secret");
    app.save(invites);
  },
);
