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
