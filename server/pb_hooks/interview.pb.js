/// <reference path="../../.cache/pocketbase/types.d.ts" />
// GET /api/screenroom/interviews/{key}: everything the candidate's interview screens need, in one request: the
// company's name, the job's title, the job's questions in the job's order with their kind, and the questions the
// candidate has already answered; for each unanswered video question, the takes the server counted (`takesUsed`)
// and the take it keeps for the candidate (`keptTake`: a finished or interrupted take never submitted, issue 22). `key` is the candidate's key (the hidden `secret`, the interview link's
// credential, migration 1732700000_candidate_key.js), presented again in the X-Candidate-Key header.
//
// Why a route and not the records API: read with only the candidate's header, the records API checks every
// expanded company, job, question and kind record against the candidate clauses of their rules, which join
// back-relations (jobs_via_company.candidates_via_job, jobs_via_questions.candidates_via_job) across all of a
// company's candidates; at the benchmark's size (3,000 candidates) that made the interview's first request miss
// its p95 budget. Here the same access decision is made once, on the candidate record itself, with the candidates
// collection's own view rule (decisions.md "Access model"); everything else returned is reached from that record by
// its relations, which is exactly what the candidate clauses of the other rules allow.
//
// A link sent before candidates had keys carries the record id: for such a candidate (`linkReplaced`) the route
// mails the new link to the candidate's own address (within its e-mail budget, lib/throttle.js) and answers 410; whoever holds only the
// id learns nothing more than "replaced".
//
// Issue 17 points 5-8 (lib/interview-rules.js): `serverNow` (the server's clock), `deadline` ('' when none) and
// `closed` (null, or {reason: "deadline" | "withdrawn" | "job_closed", at}: then `questions` is empty, the branding stays); per
// question the candidate's own `timeout` (seconds, extra time included), `untimed` (unlimited time: no countdown, no
// length limit), `preparation` (video: seconds before recording starts by itself; 0 for text), `takes` (with the
// extra takes) and `openedAt` (the first opening, POST .../questions/{questionId}/open below; '' if never).

// Issue 20 point 3: a path holding a candidate's key (40 letters and digits) is answered by pocketbase/interview_read.go,
// the same read in Go, before this handler runs (a middleware); this handler still answers every other path: the
// record ids of links sent before keys (below), and anything else with the same 404. Change both together.
routerAdd("GET", "/api/screenroom/interviews/{id}", (e) => {
  const { findByIdOrNull, isCandidateKey, requestCandidate, sendInterviewMail } = require(`${__hooks}/lib/util.js`);
  const notValid = () => new NotFoundError("This interview link is not valid");
  const key = e.request.pathValue("id");
  if (!isCandidateKey(key)) {
    const legacy = findByIdOrNull(e.app, "candidates", key);
    if (legacy && legacy.getBool("linkReplaced")) {
      // within the address's e-mail budget (lib/throttle.js): opening the old link again and again mails nobody
      if (require(`${__hooks}/lib/throttle.js`).takeMailBudget(e.app, legacy.getString("email"), "invite")) sendInterviewMail(e.app, legacy, true);
      throw new ApiError(410, "This interview link was replaced: the new one was sent to your e-mail address.");
    }
    throw notValid();
  }
  // A candidate reads only its own interview; managers read candidates through the review screen.
  const candidate = requestCandidate(e);
  if (!candidate || candidate.getString("secret") !== key) throw notValid();
  if (!e.app.canAccessRecord(candidate, e.requestInfo(), candidate.collection().viewRule)) throw notValid();

  const { jobQuestions, kindsOf } = require(`${__hooks}/lib/util.js`);
  const rules = require(`${__hooks}/lib/interview-rules.js`);
  const { nowText } = require(`${__hooks}/lib/clock.js`);
  const job = e.app.findRecordById("jobs", candidate.getString("job"));
  const company = e.app.findRecordById("companies", job.getString("company"));
  // Issue 17: a closed interview (deadline passed, invitation withdrawn) shows its branding and why, no questions.
  const closed = rules.closedState(e.app, candidate);
  const questions = closed ? [] : jobQuestions(e.app, job);
  const kinds = kindsOf(e.app, ["video_questions", "text_questions"], "question", questions.map((q) => q.id));

  const answered = e.app.findAllRecords("answers", $dbx.hashExp({ candidate: candidate.id }));
  const answeredIds = answered.map((answer) => answer.getString("question"));
  const takes = require(`${__hooks}/lib/takes.js`);
  const { findProgress } = require(`${__hooks}/lib/progress.js`);
  const asked = [];
  for (const question of questions) {
    const kind = kinds[question.id];
    // A job never holds a kindless question (business rule 7); should one slip through, it is not askable.
    if (!kind) continue;
    const video = kind.name === "video_questions";
    // An unanswered video question's takes as the server counted them, and the take it keeps (issue 22).
    const open = video && answeredIds.indexOf(question.id) === -1;
    const live = open ? takes.liveTakeOf(e.app, candidate.id, question.id) : null;
    const kept = live ? takes.describeTake(e.app, live) : null;
    const progress = findProgress(e.app, candidate.id, question.id);
    const videoKind = video ? kind.record : null;
    asked.push({
      id: question.id,
      title: question.getString("title"),
      description: question.getString("description"),
      // the candidate's own times and takes (extra time, extra takes: lib/interview-rules.js), never why
      timeout: rules.effectiveTimeout(question, candidate),
      untimed: rules.isUntimed(candidate),
      preparation: rules.effectivePreparation(videoKind, candidate),
      canPreview: question.getBool("canPreview"),
      kind: video ? "video" : "text",
      takes: rules.maxTakes(videoKind, candidate),
      takesUsed: open && progress ? progress.getInt("takesStarted") : 0,
      // the first opening, on the server's clock: preparation and the text countdown run from it (a reload resumes)
      openedAt: progress ? progress.getString("openedAt") : "",
      keptTake: kept ? { id: kept.id, bytes: kept.bytes, recordedMs: kept.recordedMs, finished: kept.finished, savedAt: kept.savedAt } : null,
    });
  }

  // The logo file field is not protected: its URL is readable by whoever has it, the candidate included.
  const logo = company.getString("logo");
  return e.json(200, {
    candidateId: candidate.id,
    companyName: company.getString("name"),
    companyLogoUrl: logo ? `/api/files/${company.collection().id}/${company.id}/${encodeURIComponent(logo)}` : "",
    privacyUrl: company.getString("privacyUrl"),
    jobTitle: job.getString("title"),
    welcomeMessage: job.getString("welcomeMessage"),
    consentedAt: candidate.getString("consentedAt"),
    serverNow: nowText(e.app),
    deadline: candidate.getString("deadline"),
    closed: closed,
    questions: asked,
    answeredQuestionIds: answeredIds,
  });
});

// POST /api/screenroom/interviews/{key}/consent, header X-Candidate-Key: the candidate ticked 'I agree' on the start
// screen (issue 17 point 2). 200 {consentedAt}; a second call keeps the first time (idempotent); 404 with the
// invalid-link message without the candidate's key in the path and the header. Answers and staged parts are refused
// before it (lib/util.js requireConsent). 403 (code deadline_passed, withdrawn or job_closed) once the interview is closed.
routerAdd("POST", "/api/screenroom/interviews/{id}/consent", (e) => {
  const { isCandidateKey, requestCandidate } = require(`${__hooks}/lib/util.js`);
  const { dbNow } = require(`${__hooks}/lib/pipeline.js`);
  const notValid = () => new NotFoundError("This interview link is not valid");
  const key = e.request.pathValue("id");
  if (!isCandidateKey(key)) throw notValid();
  const presented = requestCandidate(e);
  if (!presented || presented.getString("secret") !== key) throw notValid();
  // Issue 17: a closed interview (deadline passed, withdrawn) starts nothing, consent included (403 with its code).
  require(`${__hooks}/lib/interview-rules.js`).requireAnswerable(e.app, presented, NaN);
  let consentedAt = "";
  e.app.runInTransaction((txApp) => {
    const candidate = txApp.findRecordById("candidates", presented.id);
    consentedAt = candidate.getString("consentedAt");
    if (consentedAt) return;
    consentedAt = dbNow();
    // one column, straight to the row: the record's own save hooks (progress, pipeline) have nothing to do with it
    txApp
      .db()
      .newQuery("UPDATE candidates SET consentedAt = {:at} WHERE id = {:id} AND (consentedAt IS NULL OR consentedAt = '')")
      .bind({ at: consentedAt, id: candidate.id })
      .execute();
    consentedAt = txApp.findRecordById("candidates", candidate.id).getString("consentedAt");
  });
  return e.json(200, { consentedAt: consentedAt });
});

// POST /api/screenroom/interviews/{key}/questions/{questionId}/open, header X-Candidate-Key: the candidate pressed
// 'View question' (issue 17 point 8). Records the question's first opening (question_progress.openedAt; a second
// call keeps the first) and answers 200 {openedAt, serverNow}: the preparation time (video) and the text countdown
// run on the server's clock from it, so a reload, the back button or a reopened link resume with what is left.
// 404 with the invalid-link message without the candidate's key in the path and the header, and for a question
// that is not one of the candidate's job's (the same answer for one that does not exist); 403 before consent; 403
// (deadline_passed, withdrawn) once the interview is closed, except a question opened before the deadline, asked
// again in its grace window (its openedAt is given back, nothing new starts).
routerAdd("POST", "/api/screenroom/interviews/{id}/questions/{questionId}/open", (e) => {
  const { isCandidateKey, requestCandidate, requireConsent } = require(`${__hooks}/lib/util.js`);
  const rules = require(`${__hooks}/lib/interview-rules.js`);
  const { markOpened } = require(`${__hooks}/lib/progress.js`);
  const { nowText } = require(`${__hooks}/lib/clock.js`);
  const notValid = () => new NotFoundError("This interview link is not valid");
  const key = e.request.pathValue("id");
  if (!isCandidateKey(key)) throw notValid();
  const candidate = requestCandidate(e);
  if (!candidate || candidate.getString("secret") !== key) throw notValid();
  const questionId = e.request.pathValue("questionId");
  const job = e.app.findRecordById("jobs", candidate.getString("job"));
  if (job.getStringSlice("questions").indexOf(questionId) === -1) throw notValid();
  requireConsent(candidate);
  rules.requireAnswerable(e.app, candidate, rules.openedAtMs(e.app, candidate.id, questionId));
  const openedAt = markOpened(e.app, candidate.id, questionId);
  return e.json(200, { openedAt: openedAt, serverNow: nowText(e.app) });
});

// POST /api/screenroom/interviews/{key}/connection-check, header X-Candidate-Key: the device check's timed upload
// (issue 17 point 3). The candidate's screen sends a few hundred KB and times the request; the route reads the bytes
// and drops them: nothing is written to disk or to the database, so it cannot fill a disk or stand in for a take.
// 204 for the candidate (key in the path and the header, as for the GET above); 404 with the invalid-link message for
// anyone else, before a byte is read; 413 for a body over 1 MB (lib/limits.js CONNECTION_CHECK_MAX_BYTES), announced
// by its Content-Length or found while reading a chunked body.
routerAdd(
  "POST",
  "/api/screenroom/interviews/{id}/connection-check",
  (e) => {
    const { isCandidateKey, requestCandidate } = require(`${__hooks}/lib/util.js`);
    const { CONNECTION_CHECK_MAX_BYTES } = require(`${__hooks}/lib/limits.js`);
    const notValid = () => new NotFoundError("This interview link is not valid");
    const key = e.request.pathValue("id");
    if (!isCandidateKey(key)) throw notValid();
    const candidate = requestCandidate(e);
    if (!candidate || candidate.getString("secret") !== key) throw notValid();
    let read = 0;
    try {
      // read to the end (the upload is timed on the device until the answer), then forgotten
      read = toBytes(e.request.body, CONNECTION_CHECK_MAX_BYTES + 1).length;
    } catch (_) {
      throw new ApiError(413, "The connection check sends at most 1 MB.");
    }
    if (read > CONNECTION_CHECK_MAX_BYTES) throw new ApiError(413, "The connection check sends at most 1 MB.");
    return e.noContent(204);
  },
  $apis.bodyLimit(require(`${__hooks}/lib/limits.js`).CONNECTION_CHECK_MAX_BYTES),
);
