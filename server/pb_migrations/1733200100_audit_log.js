/// <reference path="../../.cache/pocketbase/types.d.ts" />
// Issue 19 point 6: the audit log of exports and erasures (written by the export route, pocketbase/export.go, and
// the erase route and the retention cron, pb_hooks/lib/erasure.js).
// - company: the company whose candidate it was; actor: the manager who did it (empty for the retention cron);
//   action: export, erase or retention_erase; candidateId: the candidate's internal record id as plain text, not a
//   relation, so the entry outlives the candidate it names. No e-mail, no name (decisions.md "Data lifetime").
// - The company's managers (verified accounts) list and view it. Nobody creates, updates or deletes an entry
//   through any API (rules null: superusers only) and pb_hooks/audit-log.pb.js refuses updates and deletes at the
//   model level, so a superuser, the admin UI and the server's own code cannot change or remove one either. The one
//   exception: deleting the company takes its log with it (the cascade of this relation), as it takes everything else.

const AUTH = '@request.auth.id != "" && @request.auth.collectionName = "users" && @request.auth.verified = true';
const MANAGES = `${AUTH} && company.managers.id ?= @request.auth.id`;

migrate(
  (app) => {
    const companies = app.findCollectionByNameOrId("companies");
    const log = new Collection({
      type: "base",
      name: "audit_log",
      listRule: MANAGES,
      viewRule: MANAGES,
      createRule: null,
      updateRule: null,
      deleteRule: null,
      fields: [
        { name: "company", type: "relation", required: true, collectionId: companies.id, maxSelect: 1, cascadeDelete: true },
        { name: "actor", type: "relation", collectionId: "_pb_users_auth_", maxSelect: 1, cascadeDelete: false },
        { name: "action", type: "select", required: true, maxSelect: 1, values: ["export", "erase", "retention_erase"] },
        { name: "candidateId", type: "text", required: true, min: 1, max: 100 },
        { name: "created", type: "autodate", onCreate: true, onUpdate: false },
      ],
      indexes: ["CREATE INDEX idx_audit_log_company ON audit_log (company, created)"],
    });
    app.save(log);
  },
  (app) => {
    app.delete(app.findCollectionByNameOrId("audit_log"));
  },
);
