/// <reference path="../../.cache/pocketbase/types.d.ts" />
// Issue 15, the review workflow's server (schema and rules: pb_migrations/1732900000_review_workflow.js; share links:
// share-links.pb.js). Candidates' pipeline fields are the server's (lib/pipeline.js):
// - status, answeredCount, startedAt, completedAt follow the candidate's answers, however they are stored or deleted
//   (the answers route, a superuser's records or batch API, a cascade), and the job's questions when they change;
// - averageRating, ratingsCount follow the ratings;
// - decision, decisionBy, decisionAt are set by POST /api/screenroom/candidates/{id}/decision.
// The records API (and the batch API, which runs the same request hooks per item) refuses writes of all nine to
// everyone but superusers, and only the job's company's managers (and superusers) see the ratings and the decision:
// a candidate presenting its key reads its own record without them.

// ---- progress: answers and the job's questions ----

// After the answer is written (inside the answers route's transaction there, so the candidate's row changes with the
// answer or not at all): one small UPDATE of one candidate, nothing scanned.
onRecordCreate((e) => {
  e.next();
  require(`${__hooks}/lib/pipeline.js`).recomputeCandidateProgress(e.app, e.record.getString("candidate"));
}, "answers");

onRecordDelete((e) => {
  e.next();
  require(`${__hooks}/lib/pipeline.js`).recomputeCandidateProgress(e.app, e.record.getString("candidate"));
}, "answers");

// Answers are not updated through the API (updateRule null); a superuser moving one moves its count too.
onRecordUpdate((e) => {
  const before = e.record.original().getString("candidate");
  const beforeQuestion = e.record.original().getString("question");
  e.next();
  const { recomputeCandidateProgress } = require(`${__hooks}/lib/pipeline.js`);
  const after = e.record.getString("candidate");
  if (before !== after || beforeQuestion !== e.record.getString("question")) {
    recomputeCandidateProgress(e.app, after);
    if (before !== after) recomputeCandidateProgress(e.app, before);
  }
}, "answers");

// A job's questions changed (edited, or a deleted question taken out of it): its candidates' progress, one UPDATE.
onRecordUpdate((e) => {
  const changed = e.record.original().getStringSlice("questions").join(",") !== e.record.getStringSlice("questions").join(",");
  e.next();
  if (changed) require(`${__hooks}/lib/pipeline.js`).recomputeJobProgress(e.app, e.record.id);
}, "jobs");

// ---- candidates: the server's fields ----

// A new candidate starts invited, with nothing answered, rated or decided (the request hook below refuses anything
// else from a client; a superuser's import may bring its own values).
onRecordCreate((e) => {
  if (!e.record.getString("status")) e.record.set("status", "invited");
  e.next();
}, "candidates");

// Every save of a candidate writes the whole row. A manager's edit (its e-mail) carries the server's fields as they
// were when the API read the record, so an answer, a rating or a decision stored in between would be undone: the
// server's fields this save does not change are taken again from the row just before it is written.
onRecordUpdate((e) => {
  const { SERVER_FIELDS, fieldValue, recomputeCandidateProgress } = require(`${__hooks}/lib/pipeline.js`);
  const original = e.record.original();
  const kept = SERVER_FIELDS.filter((field) => fieldValue(e.record, field) === fieldValue(original, field));
  if (kept.length) {
    let current = null;
    try {
      current = e.app.findRecordById("candidates", e.record.id);
    } catch (_) {
      // deleted meanwhile: the save fails on its own
    }
    if (current) for (const field of kept) e.record.set(field, current.get(field));
  }
  const movedJob = original.getString("job") !== e.record.getString("job");
  e.next();
  // only a superuser moves a candidate to another job (the update rule keeps `job`): its progress against that job's questions
  if (movedJob) recomputeCandidateProgress(e.app, e.record.id);
}, "candidates");


// The records and batch APIs: the server's fields are not a client's to write (a superuser's tools may). The body is
// already loaded into the record here (modifiers such as `answeredCount+` resolved), so what is compared is what
// would be stored: a create may only carry the defaults, an update only the stored values.
onRecordCreateRequest((e) => {
  if (!e.hasSuperuserAuth()) {
    const { SERVER_FIELDS, fieldValue, serverFieldError } = require(`${__hooks}/lib/pipeline.js`);
    // what a new candidate has anyway may be sent (a client posting a whole record)
    const isDefault = (field) => fieldValue(e.record, field) === 0 || fieldValue(e.record, field) === "" || (field === "status" && e.record.getString(field) === "invited");
    for (const field of SERVER_FIELDS) if (!isDefault(field)) throw serverFieldError(field);
  }
  e.next();
}, "candidates");

onRecordUpdateRequest((e) => {
  if (!e.hasSuperuserAuth()) {
    const { SERVER_FIELDS, fieldValue, serverFieldError } = require(`${__hooks}/lib/pipeline.js`);
    const original = e.record.original();
    for (const field of SERVER_FIELDS) {
      if (fieldValue(e.record, field) !== fieldValue(original, field)) throw serverFieldError(field);
    }
  }
  e.next();
}, "candidates");

// Who sees the ratings and the decision of a candidate record, wherever the API serialises one (view, list, an
// expand from answers or any other collection, a realtime event): superusers and the managers of the job's company.
// Anyone else who may read the record (the candidate presenting its key) gets it without them.
onRecordEnrich((e) => {
  const info = e.requestInfo;
  const auth = info ? info.auth : null;
  let visible = false;
  if (auth && auth.isSuperuser()) visible = true;
  else if (auth && auth.collection().name === "users") {
    visible = require(`${__hooks}/lib/pipeline.js`).managesJob(e.app, e.record.getString("job"), auth.id);
  }
  if (!visible) e.record.hide(...require(`${__hooks}/lib/pipeline.js`).MANAGERS_ONLY_FIELDS);
  e.next();
}, "candidates");
