/// <reference path="../../.cache/pocketbase/types.d.ts" />
// Issue 13 (decisions.md "Accounts and teams"): each company has an owner, at first its creator. Only the owner
// removes other managers and nobody removes the owner (pb_hooks/companies.pb.js). Existing companies get their
// first manager, the creator under rule 1, as owner.
//
// Required, and not cascading: the owner's account cannot be deleted while it owns a company (PocketBase refuses
// to delete a record that a required relation still points at), so a company never loses its owner.

migrate(
  (app) => {
    const companies = app.findCollectionByNameOrId("companies");
    companies.fields.add(
      new RelationField({ name: "owner", required: false, collectionId: "_pb_users_auth_", maxSelect: 1, cascadeDelete: false }),
    );
    companies.addIndex("idx_companies_owner", false, "owner", "");
    app.save(companies);

    // plain SQL: no record hooks (they would check the very rule being introduced) and one statement for any size
    app
      .db()
      .newQuery("UPDATE companies SET owner = COALESCE(json_extract(managers, '$[0]'), '') WHERE owner = '' OR owner IS NULL")
      .execute();

    const field = companies.fields.getByName("owner");
    field.required = true;
    app.save(companies);
  },
  (app) => {
    const companies = app.findCollectionByNameOrId("companies");
    companies.removeIndex("idx_companies_owner");
    companies.fields.removeByName("owner");
    app.save(companies);
  },
);
