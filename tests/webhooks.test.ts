// Issue 18 point 2: webhooks, end to end on a real PocketBase of the suite's own (so its sender's settings are the
// test's): the hooks record each event (server/internal/webhooks/events.go), the sender (webhooks.go there) POSTs
// it to a receiver on 127.0.0.1 started here. The signature is checked with Node's crypto, computed here from the
// Standard Webhooks definition, not with the server's code. The sender's retry delay is 200 ms on these servers
// (WEBHOOKS_RETRY_BASE_MS), so a retry is seen without waiting minutes; every wait is for an event (a request
// received, a row's status), never a fixed time.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type PocketBase from "pocketbase";
import type { RecordModel } from "pocketbase";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type OwnServer, answerText, answerVideo, errorOf, newCandidateOf, superuser, uniqueEmail, useOwnServer, world } from "./helpers";
import { type Received, Receiver, expectedSignature, until } from "./webhook-support";

const ALL_EVENTS = ["candidate.invited", "candidate.started", "candidate.completed", "answer.transcribed", "candidate.decided"];
const FAST = { WEBHOOKS_RETRY_BASE_MS: "200", WEBHOOKS_POLL_MS: "100" };

function expectSigned(request: Received, secret: string) {
  const id = String(request.headers["webhook-id"]);
  const timestamp = String(request.headers["webhook-timestamp"]);
  expect(id).toMatch(/^[a-z0-9]{15}$/);
  expect(timestamp).toMatch(/^\d{10}$/);
  // sent now (not a replay): within five minutes of this machine's clock
  expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(300);
  expect(request.headers["content-type"]).toBe("application/json");
  const signatures = String(request.headers["webhook-signature"]).split(" ");
  expect(signatures).toContain(`v1,${expectedSignature(secret, id, timestamp, request.body)}`);
  // and a wrong secret would not match: the check can fail
  const other = "whsec_" + Buffer.alloc(24, 7).toString("base64");
  expect(signatures).not.toContain(`v1,${expectedSignature(other, id, timestamp, request.body)}`);
}

async function createEndpoint(pb: PocketBase, company: string, url: string, events = ALL_EVENTS) {
  return pb.collection("webhook_endpoints").create({ company, url, events });
}

async function deliveriesOf(su: PocketBase, filter: string, params: Record<string, unknown>) {
  return su.collection("webhook_deliveries").getFullList({ filter: su.filter(filter, params), sort: "created" });
}

describe("webhooks to a receiver on this machine (WEBHOOKS_ALLOW_PRIVATE_TARGETS=1)", () => {
  let server: OwnServer;
  let su: PocketBase;
  let receiver: Receiver;
  let a: Awaited<ReturnType<typeof world>>;
  let b: Awaited<ReturnType<typeof world>>;
  let endpoint: RecordModel;
  let secret: string;

  beforeAll(async () => {
    server = await useOwnServer({ WEBHOOKS_ALLOW_PRIVATE_TARGETS: "1", ...FAST });
    su = await superuser();
    receiver = await new Receiver().start();
    a = await world("hooks-a");
    b = await world("hooks-b");
    endpoint = await createEndpoint(a.manager.pb, a.company.id, receiver.url());
    secret = endpoint.secret as string;
  });

  afterAll(async () => {
    await receiver?.stop();
    await server?.stop();
  });

  it("makes a Standard Webhooks secret, shown in the create response only", async () => {
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(secret.slice(6), "base64")).toHaveLength(24);
    expect(endpoint.enabled).toBe(true);
    const viewed = await a.manager.pb.collection("webhook_endpoints").getOne(endpoint.id);
    expect(viewed.secret).toBeUndefined();
    expect(JSON.stringify(viewed)).not.toContain(secret.slice(6));
    const listed = await a.manager.pb.collection("webhook_endpoints").getFullList();
    expect(JSON.stringify(listed)).not.toContain(secret.slice(6));
    const updated = await a.manager.pb.collection("webhook_endpoints").update(endpoint.id, { events: ALL_EVENTS, secret: "whsec_" + "A".repeat(32) });
    expect(updated.secret).toBeUndefined();
    // the stored secret is the one it made (a superuser reads hidden fields)
    expect((await su.collection("webhook_endpoints").getOne(endpoint.id)).secret).toBe(secret);
  });

  it("signs candidate.invited, and logs the delivery: succeeded, one attempt, HTTP 200, its latency", async () => {
    const email = uniqueEmail("hooked");
    const candidate = await a.manager.pb.collection("candidates").create({ job: a.job.id, email });
    const request = await until(() => receiver.of("candidate.invited").find((r) => JSON.parse(r.body).data.candidate.id === candidate.id));
    expectSigned(request, secret);
    const payload = JSON.parse(request.body);
    expect(payload).toMatchObject({
      type: "candidate.invited",
      data: {
        candidate: { id: candidate.id, email, status: "invited" },
        job: { id: a.job.id, title: a.job.title },
        company: { id: a.company.id, name: a.company.name },
      },
    });
    expect(Number.isNaN(Date.parse(payload.timestamp))).toBe(false);
    const delivery = await until(async () => {
      const [row] = await deliveriesOf(a.manager.pb, "candidate = {:c}", { c: candidate.id });
      return row?.status === "succeeded" ? row : null;
    });
    expect(delivery).toMatchObject({ event: "candidate.invited", attempts: 1, lastStatus: 200, lastError: "", endpoint: endpoint.id });
    expect(delivery.id).toBe(request.headers["webhook-id"]);
    expect(typeof delivery.latencyMs).toBe("number");
    expect(delivery.deliveredAt).not.toBe("");
  });

  it("announces started and completed once each, answer.transcribed and candidate.decided", async () => {
    const candidate = await newCandidateOf(a, "progress");
    const video = await answerVideo(candidate, a.video.question.id);
    await until(() => receiver.of("candidate.started").find((r) => JSON.parse(r.body).data.candidate.id === candidate));
    await answerText(candidate, a.text.question.id);
    const completed = await until(() => receiver.of("candidate.completed").find((r) => JSON.parse(r.body).data.candidate.id === candidate));
    expectSigned(completed, secret);
    expect(JSON.parse(completed.body).data).toMatchObject({ candidate: { status: "completed" }, progress: { answeredCount: 2 } });

    // the media worker's write: the transcript is done
    await su.collection("video_answers").update(video.kind.id, { transcriptStatus: "done", transcript: "I enjoy hard problems." });
    const transcribed = await until(() => receiver.of("answer.transcribed").find((r) => JSON.parse(r.body).data.candidate.id === candidate));
    expectSigned(transcribed, secret);
    expect(JSON.parse(transcribed.body).data.answer).toMatchObject({
      id: video.answer.id,
      videoAnswerId: video.kind.id,
      question: { id: a.video.question.id },
      transcript: "I enjoy hard problems.",
    });
    expect(transcribed.body).not.toContain("file");

    await a.manager.pb.send(`/api/screenroom/candidates/${candidate}/decision`, { method: "POST", body: { decision: "advance" } });
    const decided = await until(() => receiver.of("candidate.decided").find((r) => JSON.parse(r.body).data.candidate.id === candidate));
    expect(JSON.parse(decided.body).data.decision).toMatchObject({ value: "advance", decidedBy: a.manager.user.id });

    // everything sent for this candidate has been sent: exactly one of each
    const rows = await until(async () => {
      const all = await deliveriesOf(su, "candidate = {:c}", { c: candidate });
      return all.length === 5 && all.every((d) => d.status === "succeeded") ? all : null;
    });
    expect(rows.map((d) => d.event).sort()).toEqual(["answer.transcribed", "candidate.completed", "candidate.decided", "candidate.invited", "candidate.started"]);
    expect(receiver.of("candidate.started").filter((r) => JSON.parse(r.body).data.candidate.id === candidate)).toHaveLength(1);
    expect(receiver.of("candidate.completed").filter((r) => JSON.parse(r.body).data.candidate.id === candidate)).toHaveLength(1);
  });

  it("retries after the receiver fails: 500, then 200, ends succeeded with 2 attempts and the same webhook-id", async () => {
    receiver.answers.push(500);
    const candidate = await a.manager.pb.collection("candidates").create({ job: a.job.id, email: uniqueEmail("retried") });
    const delivery = await until(async () => {
      const [row] = await deliveriesOf(su, "candidate = {:c}", { c: candidate.id });
      return row?.status === "succeeded" ? row : null;
    });
    expect(delivery).toMatchObject({ attempts: 2, lastStatus: 200, lastError: "" });
    const requests = receiver.received.filter((r) => r.headers["webhook-id"] === delivery.id);
    expect(requests).toHaveLength(2);
    for (const request of requests) expectSigned(request, secret);
  });

  it("never sends another company's events, and sends only the events an endpoint wants", async () => {
    const before = receiver.received.length;
    const other = await b.manager.pb.collection("candidates").create({ job: b.job.id, email: uniqueEmail("other") });
    // an endpoint of a's that wants decisions only: a new candidate of a's is not sent there
    const decisionsOnly = await createEndpoint(a.manager.pb, a.company.id, receiver.url("/decisions"), ["candidate.decided"]);
    const own = await a.manager.pb.collection("candidates").create({ job: a.job.id, email: uniqueEmail("own") });
    // a's own event arrives; b's, recorded before it, never does
    await until(() => receiver.of("candidate.invited").find((r) => JSON.parse(r.body).data.candidate.id === own.id));
    const since = receiver.received.slice(before);
    expect(since.map((r) => JSON.parse(r.body).data.candidate.id)).not.toContain(other.id);
    expect(since.filter((r) => r.body.includes(b.company.id))).toEqual([]);
    expect(await deliveriesOf(su, "candidate = {:c}", { c: other.id })).toEqual([]);
    expect(await deliveriesOf(su, "endpoint = {:e}", { e: decisionsOnly.id })).toEqual([]);
  });

  it("sends a finished delivery again, on the manager's request, with the same webhook-id", async () => {
    const candidate = await a.manager.pb.collection("candidates").create({ job: a.job.id, email: uniqueEmail("again") });
    const delivery = await until(async () => {
      const [row] = await deliveriesOf(su, "candidate = {:c} && endpoint = {:e}", { c: candidate.id, e: endpoint.id });
      return row?.status === "succeeded" ? row : null;
    });
    // another company's manager: the same 404 as an unknown id
    expect((await errorOf(() => b.manager.pb.send(`/api/screenroom/webhook-deliveries/${delivery.id}/send-again`, { method: "POST" }))).status).toBe(404);
    expect((await errorOf(() => a.manager.pb.send(`/api/screenroom/webhook-deliveries/nosuchdelivery1/send-again`, { method: "POST" }))).status).toBe(404);
    const queued = await a.manager.pb.send(`/api/screenroom/webhook-deliveries/${delivery.id}/send-again`, { method: "POST" });
    expect(queued).toMatchObject({ id: delivery.id, status: "pending", attempts: 0 });
    await until(() => receiver.received.filter((r) => r.headers["webhook-id"] === delivery.id).length === 2);
    const after = await until(async () => {
      const row = await su.collection("webhook_deliveries").getOne(delivery.id);
      return row.status === "succeeded" ? row : null;
    });
    expect(after.attempts).toBe(1);
  });

  it("refuses http:// to anything but loopback, and a URL that is not one", async () => {
    for (const url of ["http://example.com/hook", "ftp://example.com/hook", "not a url"]) {
      const err = await errorOf(() => createEndpoint(a.manager.pb, a.company.id, url));
      expect({ url, status: err.status, field: Object.keys(err.response.data) }).toEqual({ url, status: 400, field: ["url"] });
    }
    const noEvents = await errorOf(() => createEndpoint(a.manager.pb, a.company.id, "https://example.com/hook", []));
    expect(noEvents.response.data.events).toBeDefined();
  });
});

describe("webhooks without the setting: private targets refused", () => {
  let dataDir: string;
  let receiver: Receiver;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "screenroom-hooks-"));
    receiver = await new Receiver().start();
  });

  afterAll(async () => {
    await receiver?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("refuses loopback, private and link-local URLs when an endpoint is written", async () => {
    const server = await useOwnServer(FAST);
    try {
      const w = await world("private");
      for (const url of [
        receiver.url(),
        `https://127.0.0.1:${receiver.port}/hook`,
        "https://localhost/hook",
        "https://10.1.2.3/hook",
        "https://192.168.1.1/hook",
        "https://169.254.169.254/latest/meta-data",
        "https://[::1]/hook",
        "https://[fd00::1]/hook",
      ]) {
        const err = await errorOf(() => createEndpoint(w.manager.pb, w.company.id, url));
        expect({ url, status: err.status, field: Object.keys(err.response.data) }).toEqual({ url, status: 400, field: ["url"] });
      }
    } finally {
      await server.stop();
    }
  });

  it("fails a delivery whose address turns out private when it connects, with a clear error, and nothing reaches the receiver", async () => {
    // an endpoint stored while the setting allowed it (as a name that resolves to a private address would pass the
    // create check); the server then runs without the setting, on the same data and port
    const allowed = await useOwnServer({ WEBHOOKS_ALLOW_PRIVATE_TARGETS: "1", ...FAST }, { dataDir });
    const w = await world("turned");
    const endpoint = await createEndpoint(w.manager.pb, w.company.id, `https://127.0.0.1:${receiver.port}/hook`);
    await allowed.stop();
    const refusing = await useOwnServer(FAST, { dataDir, port: allowed.port });
    try {
      const candidate = await w.manager.pb.collection("candidates").create({ job: w.job.id, email: uniqueEmail("refused") });
      const su = await superuser();
      const delivery = await until(async () => {
        const [row] = await deliveriesOf(su, "candidate = {:c}", { c: candidate.id });
        return row?.status === "failed" ? row : null;
      });
      expect(delivery).toMatchObject({ endpoint: endpoint.id, attempts: 1, lastStatus: 0 });
      expect(delivery.lastError).toMatch(/^Refused: the address 127\.0\.0\.1 is not public/);
      expect(receiver.connections).toBe(0);
      expect(receiver.received).toEqual([]);
      // and a manager's other clients see it in the log: a's manager reads it
      const seen = await w.manager.pb.collection("webhook_deliveries").getOne(delivery.id);
      expect(seen.status).toBe("failed");
    } finally {
      await refusing.stop();
    }
  });
});
