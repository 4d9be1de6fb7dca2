/// <reference path="../../../.cache/pocketbase/types.d.ts" />
// Webhooks (issue 18 point 2; schema: pb_migrations/1733100200_webhooks.js). The hooks record an event as it
// happens: one webhook_deliveries row, status pending, per enabled endpoint of the company that wants the event. They
// never send anything: the Go main's sender (pocketbase/webhooks.go) works the queue outside the request, signs each
// POST (Standard Webhooks), retries with backoff for up to a day and logs the outcome on the row.
//
// Recording inside the caller's transaction (pass its txApp) makes the delivery commit with the change it reports,
// or not at all: a rolled-back answer never announces a completed candidate.

const EVENTS = ["candidate.invited", "candidate.started", "candidate.completed", "answer.transcribed", "candidate.decided"];

/** How long a delivery is retried after its event (or after 'send again'): a day, shorter only in tests. */
function retryWindowMs() {
  const fromEnv = Number($os.getenv("WEBHOOKS_RETRY_WINDOW_MS"));
  return Number.isFinite(fromEnv) && fromEnv > 0 ? fromEnv : 24 * 60 * 60 * 1000;
}

/** PocketBase's datetime text of a time in ms (the sender compares nextAttemptAt with the real clock, not the test clock). */
function dbTime(ms) {
  return new Date(ms).toISOString().replace("T", " ");
}

/** ISO 8601 (the payload's timestamp, as Standard Webhooks' examples give it) of a stored date text. */
function isoOf(text) {
  return text ? String(text).replace(" ", "T") : null;
}

/** The candidate, its job and the job's company, as every candidate event's data carries them (no key, no link: those are credentials). */
function candidateData(app, candidate) {
  const job = app.findRecordById("jobs", candidate.getString("job"));
  const company = app.findRecordById("companies", job.getString("company"));
  return {
    data: {
      candidate: {
        id: candidate.id,
        email: candidate.getString("email"),
        status: candidate.getString("status") || "invited",
        deadline: isoOf(candidate.getString("deadline")),
        createdAt: isoOf(candidate.getString("created")),
      },
      job: { id: job.id, title: job.getString("title") },
      company: { id: company.id, name: company.getString("name") },
    },
  };
}

/** The company of candidate `candidateId` (one indexed read), or "". */
function companyOfCandidate(app, candidateId) {
  const row = new DynamicModel({ company: "" });
  try {
    app
      .db()
      .newQuery("SELECT j.company AS company FROM candidates c JOIN jobs j ON j.id = c.job WHERE c.id = {:id}")
      .bind({ id: candidateId })
      .one(row);
  } catch (_) {
    return "";
  }
  return row.company;
}

/**
 * Records `type` for the company `companyId`: one pending delivery per enabled endpoint that wants it (none: nothing
 * happens, and nothing more is read). `data` is the payload's data, or a function that builds it, called only when
 * some endpoint wants the event (a job's questions changing may complete thousands of candidates of a company with no
 * endpoint); `candidateId` ties the delivery to its candidate (erased with it).
 */
function recordEvent(app, type, companyId, candidateId, data) {
  const endpoints = app.findRecordsByFilter(
    "webhook_endpoints",
    "company = {:company} && enabled = true && events ~ {:event}",
    "created",
    0,
    0,
    { company: companyId, event: type },
  );
  const wanted = endpoints.filter((endpoint) => endpoint.getStringSlice("events").indexOf(type) !== -1);
  if (!wanted.length) return 0;
  if (typeof data === "function") data = data();
  const { nowMs } = require(`${__hooks}/lib/clock.js`);
  const payload = { type: type, timestamp: new Date(nowMs(app)).toISOString(), data: data };
  const collection = app.findCollectionByNameOrId("webhook_deliveries");
  const now = Date.now();
  let recorded = 0;
  // `~` on a multi-select matches a part of its JSON text (`?=` does not match select values): `wanted` is exact
  for (const endpoint of wanted) {
    const delivery = new Record(collection);
    delivery.set("endpoint", endpoint.id);
    delivery.set("candidate", candidateId || "");
    delivery.set("event", type);
    delivery.set("payload", payload);
    delivery.set("status", "pending");
    delivery.set("attempts", 0);
    delivery.set("nextAttemptAt", dbTime(now));
    delivery.set("giveUpAt", dbTime(now + retryWindowMs()));
    app.save(delivery);
    recorded += 1;
  }
  return recorded;
}

/** A candidate event (invited, started, completed, decided) for candidate `candidateId`; `extra` joins the data. */
function recordCandidateEvent(app, type, candidateId, extra) {
  const companyId = companyOfCandidate(app, candidateId);
  if (!companyId) return 0;
  return recordEvent(app, type, companyId, candidateId, () => {
    const candidate = app.findRecordById("candidates", candidateId);
    const { data } = candidateData(app, candidate);
    const more = typeof extra === "function" ? extra(candidate) : extra;
    if (more) for (const key of Object.keys(more)) data[key] = more[key];
    return data;
  });
}

/** What the progress events add: when the candidate started, or completed and how many answers it gave. */
function recordProgressEvent(app, type, candidateId) {
  return recordCandidateEvent(app, type, candidateId, (candidate) => ({
    progress:
      type === "candidate.started"
        ? { startedAt: isoOf(candidate.getString("startedAt")) }
        : { completedAt: isoOf(candidate.getString("completedAt")), answeredCount: candidate.getInt("answeredCount") },
  }));
}

/** answer.transcribed for a video answer whose transcript is done: the answer, its question and the transcript text (never the video). */
function recordTranscribed(app, videoAnswer) {
  const answer = app.findRecordById("answers", videoAnswer.getString("answer"));
  return recordCandidateEvent(app, "answer.transcribed", answer.getString("candidate"), () => {
    const question = app.findRecordById("questions", answer.getString("question"));
    return {
      answer: {
        id: answer.id,
        videoAnswerId: videoAnswer.id,
        question: { id: question.id, title: question.getString("title") },
        durationSeconds: videoAnswer.getFloat("durationSeconds"),
        transcript: videoAnswer.getString("transcript"),
      },
    };
  });
}

// ---- endpoints ----

// The URL rule of an endpoint is the Go main's (pocketbase/webhooks.go: webhookURLProblem, the sender's own
// address check).

/** A Standard Webhooks secret: "whsec_" and the base64 of 24 random bytes (32 characters of the base64 alphabet are exactly 24 bytes). */
function newSecret() {
  return "whsec_" + $security.randomStringWithAlphabet(32, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/");
}

module.exports = {
  EVENTS,
  retryWindowMs,
  dbTime,
  recordEvent,
  recordCandidateEvent,
  recordProgressEvent,
  recordTranscribed,
  newSecret,
};
