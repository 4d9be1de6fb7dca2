/// <reference path="../../.cache/pocketbase/types.d.ts" />
// Rule 1: the creator is the only initial manager and becomes primaryCompany holder if they had none.
// Managers join only through invites: an API update may remove managers but never add one.
// Issue 13 (decisions.md "Accounts and teams"): the creator is the company's owner. Nobody changes the owner through
// the API, the owner always stays a manager, only the owner removes other managers, and any other manager may
// remove only themselves (leave).

onRecordCreateRequest((e) => {
  const { requestUser } = require(`${__hooks}/lib/util.js`);
  const user = requestUser(e);
  if (!user) {
    // superusers (seed scripts, tools) choose managers and owner themselves; the owner defaults to the first
    // manager, and a chosen owner is a manager too
    const managers = Array.from(e.record.getStringSlice("managers"));
    const owner = e.record.getString("owner") || managers[0] || "";
    e.record.set("owner", owner);
    if (owner && managers.indexOf(owner) === -1) e.record.set("managers", [owner].concat(managers));
    e.next();
    return;
  }
  e.record.set("managers", [user.id]);
  e.record.set("owner", user.id);
  require(`${__hooks}/lib/util.js`).runRefusable(e.app, (txApp) => {
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
  const user = requestUser(e);
  const original = e.record.original();
  const owner = original.getString("owner");
  if (e.record.getString("owner") !== owner) {
    throw fieldError("owner", "The owner of a company cannot be changed.");
  }

  const before = Array.from(original.getStringSlice("managers"));
  const after = Array.from(e.record.getStringSlice("managers"));
  if (user) {
    for (const id of after) {
      if (before.indexOf(id) === -1) {
        throw fieldError("managers", "Managers join a company by accepting an invite.");
      }
    }
  }
  const removed = before.filter((id) => after.indexOf(id) === -1);
  if (owner && removed.indexOf(owner) !== -1) {
    throw fieldError("managers", "The owner of the company cannot be removed from its managers.");
  }
  if (user && user.id !== owner && removed.some((id) => id !== user.id)) {
    throw fieldError("managers", "Only the owner of the company can remove other managers; you can remove only yourself.");
  }
  if (!removed.length) {
    e.next();
    return;
  }

  // Whoever left or was removed no longer manages the company: a primaryCompany pointing at it (rule 2) moves to
  // another company they manage, or is emptied, in the same transaction as the removal.
  const { findFirstOrNull, runRefusable } = require(`${__hooks}/lib/util.js`);
  runRefusable(e.app, (txApp, refuse) => {
    e.app = txApp;
    try {
      e.next();
    } catch (err) {
      refuse(err); // the save's own refusal (a validation error), with its status
    }
    for (const id of removed) {
      const gone = findFirstOrNull(txApp, "users", "id = {:id} && primaryCompany = {:c}", { id: id, c: e.record.id });
      if (!gone) continue;
      const next = findFirstOrNull(txApp, "companies", "managers.id ?= {:u} && id != {:c}", { u: id, c: e.record.id });
      gone.set("primaryCompany", next ? next.id : "");
      txApp.save(gone);
    }
  });
}, "companies");

// The owner always stays one of the managers, whoever saves the company (the API, a hook, a cascade).
onRecordValidate((e) => {
  const { fieldError, isManager } = require(`${__hooks}/lib/util.js`);
  const owner = e.record.getString("owner");
  if (owner && !isManager(e.record, owner)) {
    throw fieldError("managers", "The owner of the company cannot be removed from its managers.");
  }
  e.next();
}, "companies");
