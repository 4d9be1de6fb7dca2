/// <reference path="../../.cache/pocketbase/types.d.ts" />
// The media worker's job claims (issue 7). A claim is taken in one transaction (PocketBase serialises
// writes), so of two workers asking for the same answer exactly one gets it; a claim held longer than its
// lease is treated as abandoned (a worker that crashed mid-job); a worker restarted under the same name takes
// its own unfinished job back at once.
// Each claim counts as an attempt; an answer that used up its attempts is marked failed.

// POST /api/screenroom/media/video-answers/{id}/claim  {worker, run, leaseSeconds, maxAttempts}  (superusers)
// `worker` is the worker's stable name, `run` tells its process runs apart; the claim is stored as "worker#run".
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
    if (!worker || !run || worker.indexOf("#") !== -1) throw new BadRequestError("worker and run are required.");
    const claim = worker + "#" + run;

    let outcome = { status: 409, message: "Not found" };
    e.app.runInTransaction((txApp) => {
      let record;
      try {
        record = txApp.findRecordById("video_answers", id);
      } catch (_) {
        outcome = { status: 404, message: "This video answer does not exist" };
        return;
      }
      if (record.getString("transcriptStatus") !== "pending") {
        outcome = { status: 409, message: "This video answer is not pending" };
        return;
      }
      const holder = record.getString("transcriptClaimedBy");
      const at = record.getDateTime("transcriptClaimedAt");
      const now = Math.floor(Date.now() / 1000);
      // A claim under the asking worker's own name but another run is from its previous process, which died
      // mid-job: take it back at once. The same run asking twice is refused like anyone else.
      const previousRun = holder.indexOf(worker + "#") === 0 && holder !== claim;
      const held = holder !== "" && !previousRun && !at.isZero() && now - at.unix() < leaseSeconds;
      if (held) {
        outcome = { status: 409, message: `Claimed by ${holder}` };
        return;
      }
      const attempts = record.getInt("transcriptAttempts");
      if (attempts >= maxAttempts) {
        record.set("transcriptStatus", "failed");
        record.set("transcriptClaimedBy", "");
        record.set("transcriptError", record.getString("transcriptError") || "Gave up after " + attempts + " attempts");
        txApp.save(record);
        outcome = { status: 409, message: "Attempts used up: marked failed" };
        return;
      }
      record.set("transcriptClaimedBy", claim);
      record.set("transcriptClaimedAt", new DateTime());
      record.set("transcriptAttempts", attempts + 1);
      txApp.save(record);
      outcome = { status: 200, record: record };
    });
    if (outcome.status !== 200) return e.json(outcome.status, { status: outcome.status, message: outcome.message, data: {} });
    return e.json(200, { claimed: true, record: outcome.record });
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
