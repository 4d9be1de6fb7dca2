/// <reference path="../../.cache/pocketbase/types.d.ts" />
// Issue 19 point 6: the audit log is append-only for everyone (decisions.md "Access model" amendments). The rules
// (pb_migrations/1733200100_audit_log.js) already refuse every write through the API to all but superusers; these
// model hooks run for every save and delete, whoever asks (a superuser's records or batch request, the admin UI,
// the server's own hooks), so nobody changes or removes an entry. Two writes PocketBase itself makes are allowed,
// both only once the record they follow is gone:
// - deleting a company cascades to its log (the company row is deleted first, in the same transaction): an entry
//   whose company no longer exists may be deleted;
// - deleting a manager's account empties `actor` on their entries (a relation that does not cascade is cleared):
//   an update that changes nothing but `actor`, to empty, while that account no longer exists, is allowed.

onRecordUpdate((e) => {
  const { auditChangeAllowed } = require(`${__hooks}/lib/erasure.js`);
  if (!auditChangeAllowed(e.app, e.record)) {
    throw new BadRequestError("The audit log cannot be changed.");
  }
  e.next();
}, "audit_log");

onRecordDelete((e) => {
  const { findByIdOrNull } = require(`${__hooks}/lib/util.js`);
  if (findByIdOrNull(e.app, "companies", e.record.getString("company"))) {
    throw new BadRequestError("The audit log cannot be changed.");
  }
  e.next();
}, "audit_log");
