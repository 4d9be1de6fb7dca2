/// <reference path="../../.cache/pocketbase/types.d.ts" />
// The media worker's job claims (issue 7). A claim is taken in one transaction (PocketBase serialises
// writes), so of two workers asking for the same answer exactly one gets it; a claim held longer than its
// lease is treated as abandoned (a worker that crashed mid-job); a worker restarted under the same name takes
// its own unfinished job back at once.
// Each claim counts as an attempt; an answer that used up its attempts is marked failed. A worker whose job was cut
// by a lost server (issue 26) takes its own claim up again with `resume`: not a new attempt, whatever its lease.

// POST /api/screenroom/media/video-answers/{id}/claim  {worker, run, leaseSeconds, maxAttempts, resume?}  (superusers)
// `worker` is the worker's stable name, `run` tells its process runs apart; the claim is stored as "worker#run".
// `resume: true` says the asking run may already hold the claim (its job was cut, or the reply to its claim lost,
// when the server went away): if it does, the claim is renewed and the attempt goes on uncounted; if not, it is an
// ordinary claim.
// 200 {claimed: true, record} | 409 {message} when someone else holds it, or it is not pending.
routerAdd(
  "POST",
  "/api/screenroom/media/video-answers/{id}/claim",
  (e) => {
    const id = e.request.pathValue("id");
    const body = e.requestInfo().body || {};
    const worker = String(body.worker || "").trim();
    const run = String(body.run || "").trim();
    const leaseSeconds = Math.max(1, Number(body.leaseSeconds) || 600);
    const maxAttempts = Math.max(1, Number(body.maxAttempts) || 3);
    const resume = body.resume === true;
    if (!worker || !run || worker.indexOf("#") !== -1) throw new BadRequestError("worker and run are required.");
    const claim = worker + "#" + run;

    const { findByIdOrNull, runRefusable } = require(`${__hooks}/lib/util.js`);
    let claimed = null;
    let gaveUp = false;
    runRefusable(e.app, (txApp, refuse) => {
      const record = findByIdOrNull(txApp, "video_answers", id);
      if (!record) refuse(new NotFoundError("This video answer does not exist"));
      if (record.getString("transcriptStatus") !== "pending") refuse(new ApiError(409, "This video answer is not pending"));
      const holder = record.getString("transcriptClaimedBy");
      if (resume && holder === claim) {
        record.set("transcriptClaimedAt", new DateTime());
        txApp.save(record);
        claimed = record;
        return;
      }
      const at = record.getDateTime("transcriptClaimedAt");
      const now = Math.floor(Date.now() / 1000);
      // A claim under the asking worker's own name but another run is from its previous process, which died
      // mid-job: take it back at once. The same run asking twice is refused like anyone else (unless it resumes).
      const previousRun = holder.indexOf(worker + "#") === 0 && holder !== claim;
      const held = holder !== "" && !previousRun && !at.isZero() && now - at.unix() < leaseSeconds;
      if (held) refuse(new ApiError(409, `Claimed by ${holder}`));
      const attempts = record.getInt("transcriptAttempts");
      if (attempts >= maxAttempts) {
        // committed: the answer is failed for good, and the asking worker gets nothing
        record.set("transcriptStatus", "failed");
        record.set("transcriptClaimedBy", "");
        record.set("transcriptError", record.getString("transcriptError") || "Gave up after " + attempts + " attempts");
        txApp.save(record);
        gaveUp = true;
        return;
      }
      record.set("transcriptClaimedBy", claim);
      record.set("transcriptClaimedAt", new DateTime());
      record.set("transcriptAttempts", attempts + 1);
      txApp.save(record);
      claimed = record;
    });
    if (gaveUp) throw new ApiError(409, "Attempts used up: marked failed");
    return e.json(200, { claimed: true, record: claimed });
  },
  $apis.requireSuperuserAuth(),
);

// A worker writes its result with `claimedBy` = its claim ("worker#run"): if its claim was lost meanwhile (it ran past its
// lease and another worker took over), the write is refused instead of overwriting the other worker's job.
onRecordUpdateRequest((e) => {
  const body = e.requestInfo().body || {};
  const expected = body["claimedBy"];
  if (expected !== undefined && expected !== null && expected !== "") {
    const current = e.app.findRecordById("video_answers", e.record.id);
    if (current.getString("transcriptClaimedBy") !== String(expected)) {
      throw new BadRequestError("This worker no longer holds the claim on this video answer.");
    }
  }
  e.next();
}, "video_answers");
