/// <reference path="../../.cache/pocketbase/types.d.ts" />
// Issue 18 point 2: webhooks (schema: pb_migrations/1733100200_webhooks.js; recording: lib/webhooks.js; sending:
// pocketbase/webhooks.go). Here: the endpoints' secret, the events that are not candidate progress
// (invited, transcribed; started and completed are recorded by lib/pipeline.js where the status changes, decided
// by the decision route of review-workflow.pb.js), and 'send again'.

// ---- endpoints ----

// Every write of an endpoint, whoever makes it, is checked by the Go main (pocketbase/webhooks.go): an https URL
// that is no private target in any spelling (the same address rule as the sender's dialer), at least one event.

// The secret is the server's: made here whatever the body says, and shown in this response only (unhidden on this
// record alone; a view, a list, an expand or a realtime event serialises a fresh copy, hidden). A new endpoint is
// enabled unless the body says otherwise.
onRecordCreateRequest((e) => {
  const body = e.requestInfo().body || {};
  e.record.set("secret", require(`${__hooks}/lib/webhooks.js`).newSecret());
  if (body.enabled === undefined) e.record.set("enabled", true);
  e.record.unhide("secret");
  e.next();
}, "webhook_endpoints");

// Nobody changes a secret through the API (a non-superuser's body cannot even name a hidden field; this also holds
// for a superuser's tools): delete the endpoint and add a new one for a new secret.
onRecordUpdateRequest((e) => {
  e.record.set("secret", e.record.original().getString("secret"));
  e.next();
}, "webhook_endpoints");

// ---- events ----

// candidate.invited: every way a candidate is created (an invite, a bulk import, a superuser's tools), once committed.
onRecordAfterCreateSuccess((e) => {
  e.next();
  try {
    require(`${__hooks}/lib/webhooks.js`).recordCandidateEvent(e.app, "candidate.invited", e.record.id);
  } catch (err) {
    e.app.logger().error("webhook event failed", "event", "candidate.invited", "candidate", e.record.id, "error", String(err));
  }
}, "candidates");

// answer.transcribed: the media worker sets transcriptStatus "done"; recorded with that write (in its transaction
// when there is one), once per change to done.
onRecordUpdate((e) => {
  const became = e.record.getString("transcriptStatus") === "done" && e.record.original().getString("transcriptStatus") !== "done";
  e.next();
  if (!became) return;
  try {
    require(`${__hooks}/lib/webhooks.js`).recordTranscribed(e.app, e.record);
  } catch (err) {
    e.app.logger().error("webhook event failed", "event", "answer.transcribed", "videoAnswer", e.record.id, "error", String(err));
  }
}, "video_answers");

// ---- send again ----

// POST /api/screenroom/webhook-deliveries/{id}/send-again: a manager of the endpoint's company puts a delivery that
// has finished (succeeded or failed) back in the queue: pending, attempts from 0, a new day of retries, the same
// webhook-id (the delivery's id, so a receiver that keeps ids can tell it is the same message). A pending one is
// already queued: 409. Anyone else, and an unknown id, gets the same 404.
routerAdd("POST", "/api/screenroom/webhook-deliveries/{id}/send-again", (e) => {
  const { findByIdOrNull, requestUser } = require(`${__hooks}/lib/util.js`);
  const { dbTime, retryWindowMs } = require(`${__hooks}/lib/webhooks.js`);
  const notFound = () => new NotFoundError("The requested resource wasn't found.");
  if (!requestUser(e) && !e.hasSuperuserAuth()) throw notFound();
  const delivery = findByIdOrNull(e.app, "webhook_deliveries", e.request.pathValue("id"));
  if (!delivery || !e.app.canAccessRecord(delivery, e.requestInfo(), delivery.collection().listRule)) throw notFound();
  const now = Date.now();
  // conditional, so a delivery the sender is working (pending) is never reset under it
  const result = e.app
    .db()
    .newQuery(
      `UPDATE webhook_deliveries SET status = 'pending', attempts = 0, nextAttemptAt = {:now}, giveUpAt = {:giveUp},
         lastError = '', updated = {:now}
       WHERE id = {:id} AND status != 'pending'`,
    )
    .bind({ id: delivery.id, now: dbTime(now), giveUp: dbTime(now + retryWindowMs()) })
    .execute();
  if (result.rowsAffected() !== 1) throw new ApiError(409, "This delivery is already waiting to be sent.");
  const saved = e.app.findRecordById("webhook_deliveries", delivery.id);
  $apis.enrichRecord(e, saved);
  return e.json(200, saved);
});
