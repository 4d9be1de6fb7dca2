/// <reference path="../../.cache/pocketbase/types.d.ts" />
// Only the owner deletes a company (issue 13, found in review): "any manager" let a co-manager delete the owner's
// company with everything in it (jobs, candidates, answers cascade), which is more than removing the owner.

const AUTH = '@request.auth.id != "" && @request.auth.collectionName = "users"';

migrate(
  (app) => {
    const companies = app.findCollectionByNameOrId("companies");
    companies.deleteRule = `${AUTH} && owner = @request.auth.id`;
    app.save(companies);
  },
  (app) => {
    const companies = app.findCollectionByNameOrId("companies");
    companies.deleteRule = `${AUTH} && managers.id ?= @request.auth.id`;
    app.save(companies);
  },
);
