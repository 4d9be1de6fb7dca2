/// <reference path="../../.cache/pocketbase/types.d.ts" />
// Every removal of a candidate is in the audit log (pocketbase/candidate_removal_audit.go), not only an erasure:
// - delete: the candidate deleted through the records or batch API (the review's 'Delete candidate and answers');
// - job_delete: deleted with their job.
// Still action, actor, company and candidate id only: no e-mail, no name.

const BEFORE = ["export", "erase", "retention_erase"];

migrate(
  (app) => {
    const log = app.findCollectionByNameOrId("audit_log");
    log.fields.getByName("action").values = [...BEFORE, "delete", "job_delete"];
    app.save(log);
  },
  (app) => {
    const log = app.findCollectionByNameOrId("audit_log");
    log.fields.getByName("action").values = BEFORE;
    app.save(log);
  },
);
