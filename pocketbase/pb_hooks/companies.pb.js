/// <reference path="../../.cache/pocketbase/types.d.ts" />
// Rule 1: the creator is the only initial manager and becomes primaryCompany holder if they had none.
// Managers join only through invites: an API update may remove managers but never add one.

onRecordCreateRequest((e) => {
  const { requestUser } = require(`${__hooks}/lib/util.js`);
  const user = requestUser(e);
  if (!user) {
    // superusers (seed scripts, tools) choose managers themselves
    e.next();
    return;
  }
  e.record.set("managers", [user.id]);
  e.app.runInTransaction((txApp) => {
    e.app = txApp;
    e.next();
    const fresh = txApp.findRecordById("users", user.id);
    if (!fresh.getString("primaryCompany")) {
      fresh.set("primaryCompany", e.record.id);
      txApp.save(fresh);
    }
  });
}, "companies");

onRecordUpdateRequest((e) => {
  const { requestUser, fieldError } = require(`${__hooks}/lib/util.js`);
  if (requestUser(e)) {
    const before = e.record.original().getStringSlice("managers");
    const after = e.record.getStringSlice("managers");
    for (const id of after) {
      if (before.indexOf(id) === -1) {
        throw fieldError("managers", "Managers join a company by accepting an invite.");
      }
    }
  }
  e.next();
}, "companies");
