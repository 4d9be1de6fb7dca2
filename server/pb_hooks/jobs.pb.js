/// <reference path="../../.cache/pocketbase/types.d.ts" />
// Rule 7: every question of a job belongs to the job's company and has a kind; at least one.

onRecordValidate((e) => {
  const { fieldError, findByIdOrNull, questionKind } = require(`${__hooks}/lib/util.js`);
  const ids = e.record.getStringSlice("questions");
  if (ids.length === 0) throw fieldError("questions", "Please add at least one question", "validation_required");
  const companyId = e.record.getString("company");
  for (const id of ids) {
    const question = findByIdOrNull(e.app, "questions", id);
    if (!question || question.getString("company") !== companyId) {
      throw fieldError("questions", "Every question must belong to the job's company.");
    }
    if (!questionKind(e.app, id)) {
      throw fieldError("questions", "Every question must be a video or a text question.");
    }
  }
  e.next();
}, "jobs");

// ---- issue 19 point 5: closing and reopening a job (lib/job-lifecycle.js) ----

// closedAt is the server's: set and cleared only by the routes below. Through the records API a manager's create
// starts open and an update keeps the stored value, whatever was sent (a superuser's tools may set it).
onRecordCreateRequest((e) => {
  if (!e.hasSuperuserAuth()) e.record.set("closedAt", "");
  e.next();
}, "jobs");

onRecordUpdateRequest((e) => {
  if (!e.hasSuperuserAuth()) e.record.set("closedAt", e.record.original().getString("closedAt"));
  e.next();
}, "jobs");

// POST /api/screenroom/jobs/{id}/close and /reopen (lib/job-lifecycle.js setJobClosed): a manager of the job's
// company closes or reopens it; 404 for anyone else.
routerAdd("POST", "/api/screenroom/jobs/{id}/close", (e) => {
  return require(`${__hooks}/lib/job-lifecycle.js`).setJobClosed(e, true);
});

routerAdd("POST", "/api/screenroom/jobs/{id}/reopen", (e) => {
  return require(`${__hooks}/lib/job-lifecycle.js`).setJobClosed(e, false);
});
