/// <reference path="../../.cache/pocketbase/types.d.ts" />
// Staged takes: the interview uploads a video take in parts while it is being recorded (MediaRecorder gives a
// chunk a second), so 'Submit answer' only has to send POST /api/screenroom/answers with `staged` (answers.pb.js).
// Staged parts are not an answer: only their own candidate reads them back (to offer a take again after a crash,
// GET below), and a take never submitted is removed once the interview can no longer be answered (cron below).
// Ownership and checks: lib/takes.js; the files: lib/take-files.js; the hourly sweep: lib/take-sweep.js.

// PUT /api/screenroom/takes/{takeId}/parts/{offset}?question={questionId}, header X-Candidate-Key, body: the part's
// raw bytes (at most 16 MB, with a Content-Length). takeId is the id the answer will get; offset is the part's byte
// offset in the take. Who may: exactly whoever the answers create rule lets create the answer {id: takeId,
// candidate: the header's candidate, question} — checked in full on a take's first part, which gives the take its row in
// staged_takes (lib/takes.js) and retires the candidate's earlier take of the same question (one live take per
// candidate and question); later parts must bring the same candidate and question. Every part's bytes are reserved
// on the row before they are read, all parts of the take together (retries included) at most the video field's
// size limit. A retried offset replaces the part. Optional query values, what the device says of the take with this
// part: `ms`, the length recorded up to the end of this part (whole milliseconds), and `last=1` for the part sent
// after 'Stop Recording' (a finished take; one without it was interrupted). A take's first part counts a take of
// the question (lib/progress.js), refused (403) when the question has none left (its takes plus the candidate's
// extraTakes). 403 with a code in data.interview (lib/interview-rules.js): withdrawn; deadline_passed for a first
// part after the deadline, or a later part after the grace window. 200 {take, offset, size}.
// 400: a malformed id, offset or length, no question, the answer already submitted, the take over the video size
// limit (or not a video question); 403: not this candidate's to record, or no take left; 409: the take was retired
// (replaced by a newer one, or discarded); 411: no Content-Length (a chunked body); 413: a part over 16 MB.
routerAdd(
  "PUT",
  "/api/screenroom/takes/{takeId}/parts/{offset}",
  (e) => {
    const { canCreateAnswer, findByIdOrNull, questionKind, runRolledBack } = require(`${__hooks}/lib/util.js`);
    const takes = require(`${__hooks}/lib/takes.js`);

    const takeId = e.request.pathValue("takeId");
    const offsetText = e.request.pathValue("offset");
    if (!takes.validTakeId(takeId)) throw new BadRequestError("A take id is 15 characters a-z and 0-9.");
    if (!takes.OFFSET.test(offsetText)) throw new BadRequestError("The offset must be a whole number of bytes, 0 or more.");
    const offset = parseInt(offsetText, 10);
    const question = String(e.request.url.query().get("question") || "");
    if (!question) throw new BadRequestError("The question is required.");
    const { requestCandidate } = require(`${__hooks}/lib/util.js`);
    const presented = requestCandidate(e);
    if (!presented) throw new ForbiddenError(takes.REFUSED);
    // Issue 17: before the candidate agreed on the start screen, no byte is staged.
    require(`${__hooks}/lib/util.js`).requireConsent(presented);
    const candidate = presented.id;
    // Issue 17 (lib/interview-rules.js): withdrawn refuses every part; after the deadline no take starts, and a take
    // whose first part came before it goes on within the grace window (its row's `created`, on the server's clock).
    const started = takes.findRow(e.app, takeId);
    const startedMs = started && started.getString("candidate") === candidate ? require(`${__hooks}/lib/clock.js`).parseDbTime(started.getString("created")) : NaN;
    require(`${__hooks}/lib/interview-rules.js`).requireAnswerable(e.app, presented, startedMs);
    if (findByIdOrNull(e.app, "answers", takeId)) throw new BadRequestError(takes.SUBMITTED);
    const maxBytes = takes.maxTakeBytes(e.app);
    if (offset > maxBytes) throw takes.tooBig(maxBytes);
    // The bytes are reserved before they are read: their number must be known (-1: a chunked body).
    const length = Number(e.request.contentLength);
    if (!(length >= 0)) throw takes.lengthRequired();
    if (offset + length > maxBytes) throw takes.tooBig(maxBytes);

    const claim = !takes.findRow(e.app, takeId);
    if (claim) {
      // The take's first part: the answers create rule on the answer this take would become, decided inside a
      // transaction that is always rolled back (the rule sees the saved record, as in answers.pb.js).
      // The body is the part's bytes, which requestInfo() would try (and fail) to parse as a form: take PocketBase's
      // own request info (auth, headers, query) with the body left out.
      e.request.contentLength = 0;
      let info;
      try {
        info = e.requestInfo();
      } finally {
        e.request.contentLength = length;
      }
      const allowed = runRolledBack(e.app, (txApp) => {
        const answer = new Record(txApp.findCollectionByNameOrId("answers"));
        answer.set("id", takeId);
        answer.set("candidate", candidate);
        answer.set("question", question);
        txApp.save(answer); // a validation error (e.g. the question already answered) is the 400 it would be
        return canCreateAnswer(txApp, info, answer);
      });
      if (!allowed) throw new ForbiddenError(takes.REFUSED);
      if (questionKind(e.app, question) !== "video") throw new BadRequestError("This question does not take a video answer.");
    }

    // Ownership and bytes, in one transaction (lib/takes.js); the takes this one replaced lose their dirs after it.
    const query = e.request.url.query();
    const ms = String(query.get("ms") || "");
    if (ms && !takes.OFFSET.test(ms)) throw new BadRequestError("The recorded length must be a whole number of milliseconds.");
    const marks = { recordedMs: ms ? parseInt(ms, 10) : null, finished: query.get("last") === "1" };
    const replaced = takes.reservePart(e.app, takeId, { candidate: candidate, question: question }, length, maxBytes, claim, marks);
    const files = require(`${__hooks}/lib/take-files.js`);
    files.removeTakesQuietly(e.app, replaced);

    const size = files.writePart(e.app, takeId, offset, e.request.body, length);
    return e.json(200, { take: takeId, offset: offset, size: size });
  },
  $apis.bodyLimit(require(`${__hooks}/lib/limits.js`).PART_MAX_BYTES),
);

// DELETE /api/screenroom/takes/{takeId}, header X-Candidate-Key: discards a staged take (its candidate only, 403
// for anyone else). Its row stays as a tombstone (retired) until the cron, so a part that arrives late is refused
// (409) rather than starting the take again. An unknown take is 204 as well, so a repeat is harmless.
routerAdd("DELETE", "/api/screenroom/takes/{takeId}", (e) => {
  const takes = require(`${__hooks}/lib/takes.js`);
  const takeId = e.request.pathValue("takeId");
  if (!takes.validTakeId(takeId)) throw new BadRequestError("A take id is 15 characters a-z and 0-9.");
  const { requestCandidate } = require(`${__hooks}/lib/util.js`);
  const presented = requestCandidate(e);
  if (!presented) throw new ForbiddenError("You cannot discard this take.");
  if (takes.retireTake(e.app, takeId, presented.id)) {
    require(`${__hooks}/lib/take-files.js`).removeTakesQuietly(e.app, [takeId]);
  }
  return e.noContent(204);
});

// GET /api/screenroom/takes/{takeId}, header X-Candidate-Key: the candidate's own live take, to offer it again after
// a reload, a crash or on another device (issue 22): 200 {id, question, bytes, parts: [{offset, size}], recordedMs,
// finished, savedAt}, `bytes` and `parts` contiguous from 0. GET /api/screenroom/takes/{takeId}/parts/{offset}: one
// of those parts' bytes. Only the take's own candidate reads it, and only while it is live (not retired, its
// question unanswered: an answer removes it); anyone else, and any other take, gets the same 404.
routerAdd("GET", "/api/screenroom/takes/{takeId}", (e) => {
  const { row, take } = require(`${__hooks}/lib/takes.js`).openTake(e);
  return e.json(200, Object.assign({ question: row.getString("question") }, take));
});

routerAdd("GET", "/api/screenroom/takes/{takeId}/parts/{offset}", (e) => {
  const { take } = require(`${__hooks}/lib/takes.js`).openTake(e);
  const offset = e.request.pathValue("offset");
  const part = take.parts.find((p) => String(p.offset) === offset);
  if (!part) throw new NotFoundError("The take was not found.");
  const files = require(`${__hooks}/lib/take-files.js`);
  const reader = files.partReader(e.app, take.id, part.offset, part.size);
  if (!reader) throw new NotFoundError("The take was not found.");
  e.response.header().set("Cache-Control", "no-store");
  e.response.header().set("Content-Length", String(part.size));
  try {
    return e.stream(200, "application/octet-stream", reader);
  } finally {
    reader.close();
  }
});

// Takes never submitted are the candidate's recording (decisions.md "Staged takes"): kept while the interview can
// still be answered, then removed, rows and dirs (lib/take-sweep.js removeStaleTakes): until the candidate's
// deadline plus its grace window (24 hours), or 30 days after the take last changed for a candidate without one.
cronAdd("screenroomStaleTakes", "0 * * * *", () => {
  const { removeStaleTakes, KEEP_TAKES_SECONDS } = require(`${__hooks}/lib/take-sweep.js`);
  const removed = removeStaleTakes($app, KEEP_TAKES_SECONDS);
  if (removed) $app.logger().info("removed stale staged takes", "count", removed);
});
