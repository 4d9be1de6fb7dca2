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
// expand from answers or any other collection, a realtime event): superusers and the managers of the job's company;
// anyone else who may read the record (the candidate presenting its key) gets it without them. That hook is in Go,
// pocketbase/candidate_enrich.go: a JS onRecordEnrich held one JS runtime per record of a listed page (PocketBase
// nests a list's enrich hooks), which made a 30-row page of the pipeline take seconds under load.

// ---- the decision ----

// POST /api/screenroom/candidates/{id}/decision, body {decision: "advance" | "hold" | "reject" | ""}: a manager of the
// job's company sets, changes or clears the candidate's decision. 200 the candidate record (decisionBy the manager,
// decisionAt now; "" clears all three; the decision it already has changes nothing, so a repeated request keeps who
// set it and when). Anyone else, and an unknown id, gets the same 404, before the body is read: the route says nothing
// about other companies' candidates. A record save (in a transaction, from the row as it is), so managers subscribed
// to the candidate see it live and a candidate's own subscription gets it without the decision (onRecordEnrich).
routerAdd("POST", "/api/screenroom/candidates/{id}/decision", (e) => {
  const { fieldError, findByIdOrNull, requestUser, runRefusable } = require(`${__hooks}/lib/util.js`);
  const { DECISIONS, dbNow } = require(`${__hooks}/lib/pipeline.js`);
  const notFound = () => new NotFoundError("The requested resource wasn't found.");
  const info = e.requestInfo();
  const user = requestUser(e);
  if (!user) throw notFound();
  const candidate = findByIdOrNull(e.app, "candidates", e.request.pathValue("id"));
  // the list rule, not the view rule: the view rule also lets the candidate itself read its record
  if (!candidate || !e.app.canAccessRecord(candidate, info, candidate.collection().listRule)) throw notFound();

  const body = info.body || {};
  const decision = body.decision;
  if (typeof decision !== "string" || (decision !== "" && DECISIONS.indexOf(decision) === -1)) {
    throw fieldError("decision", "Choose advance, hold, reject, or no decision.", "validation_invalid_value");
  }

  let saved = null;
  runRefusable(e.app, (txApp) => {
    const record = txApp.findRecordById("candidates", candidate.id);
    if (record.getString("decision") !== decision) {
      record.set("decision", decision);
      record.set("decisionBy", decision ? user.id : "");
      record.set("decisionAt", decision ? dbNow() : "");
      txApp.save(record);
      // issue 18: candidate.decided, with the decision it commits with ("" when cleared)
      require(`${__hooks}/lib/webhooks.js`).recordCandidateEvent(txApp, "candidate.decided", record.id, {
        decision: { value: decision, decidedBy: decision ? user.id : null, decidedAt: decision ? record.getString("decisionAt").replace(" ", "T") : null },
      });
    }
    saved = record;
  });
  $apis.enrichRecord(e, saved);
  return e.json(200, saved);
});

// ---- the pipeline's counts ----

// GET /api/screenroom/jobs/{id}/pipeline: pocketbase/pipeline_counts.go (in Go since issue 20 point 3).

// ---- ratings ----

// Each manager rates each answer once, 1 to 5 whole stars, for the answer's own candidate. The rules already hold a
// manager to their own ratings of their own company's answers (and refuse a candidate that is not the answer's);
// these are the product's words for what the schema would refuse with PocketBase's, and the same checks for a
// superuser's tools.
onRecordValidate((e) => {
  const { fieldError, findByIdOrNull, refuseDuplicate } = require(`${__hooks}/lib/util.js`);
  const stars = e.record.getFloat("stars");
  if (!(stars >= 1 && stars <= 5 && Math.floor(stars) === stars)) {
    throw fieldError("stars", "Choose 1 to 5 stars.", "validation_invalid_value");
  }
  const answer = findByIdOrNull(e.app, "answers", e.record.getString("answer"));
  if (answer && answer.getString("candidate") !== e.record.getString("candidate")) {
    throw fieldError("candidate", "This answer is not this candidate's.", "validation_invalid_value");
  }
  const values = { answer: e.record.getString("answer"), manager: e.record.getString("manager") };
  refuseDuplicate(e.app, e.record, "ratings", values, "answer", "You have already rated this answer.");
  e.next();
}, "ratings");

// After every rating written or removed (a cascade included), its candidate's averageRating and ratingsCount.
onRecordCreate((e) => {
  e.next();
  require(`${__hooks}/lib/pipeline.js`).recomputeCandidateRating(e.app, e.record.getString("candidate"));
}, "ratings");

onRecordUpdate((e) => {
  const before = e.record.original().getString("candidate");
  e.next();
  const { recomputeCandidateRating } = require(`${__hooks}/lib/pipeline.js`);
  recomputeCandidateRating(e.app, e.record.getString("candidate"));
  // only a superuser moves a rating (the update rule keeps answer, candidate and manager)
  if (before !== e.record.getString("candidate")) recomputeCandidateRating(e.app, before);
}, "ratings");

onRecordDelete((e) => {
  e.next();
  require(`${__hooks}/lib/pipeline.js`).recomputeCandidateRating(e.app, e.record.getString("candidate"));
}, "ratings");

// ---- comments ----

// A comment's text is trimmed before it is validated and stored; then it must hold 1 to 2,000 characters (counted as
// PocketBase counts a text field's length: Unicode code points). Whitespace alone is refused on `text`.
onRecordCreate((e) => {
  e.record.set("text", e.record.getString("text").trim());
  e.next();
}, "comments");

onRecordUpdate((e) => {
  e.record.set("text", e.record.getString("text").trim());
  e.next();
}, "comments");

onRecordValidate((e) => {
  const { fieldError } = require(`${__hooks}/lib/util.js`);
  const text = e.record.getString("text").trim();
  if (!text) throw fieldError("text", "Please write a comment.", "validation_required");
  if (Array.from(text).length > 2000) throw fieldError("text", "A comment must be at most 2,000 characters.", "validation_max_text_constraint");
  e.next();
}, "comments");
