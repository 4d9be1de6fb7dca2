// Managing an endpoint without deleting it (server/internal/webhooks: endpoint_routes.go, endpoint_health.go):
// 'Send a test event', rotating the secret, a redirect failing at once, and an endpoint that keeps failing disabled
// with an e-mail to its company's owner. On a server of the suite's own, with a receiver on 127.0.0.1
// (WEBHOOKS_ALLOW_PRIVATE_TARGETS=1), a 200 ms first retry, WEBHOOKS_DISABLE_AFTER_HOURS=48, and the test clock,
// which the test moves to cross the overlap of a rotated secret and the time an endpoint may fail. Every wait is for
// an event (a request received, a row's status, an e-mail), never a fixed time.
import type PocketBase from "pocketbase";
import type { RecordModel } from "pocketbase";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type OwnServer, errorOf, signUp, superuser, uniqueEmail, useOwnServer, waitForMail, world } from "./helpers";
import { acceptInvite } from "./support";
import { Receiver, signatureBy, signaturesOf, until } from "./webhook-support";

const HOUR = 3_600_000;
/** the events of the test-event cases' endpoints: one nothing here triggers, so each receives its tests alone */
const QUIET = ["answer.transcribed"];

let server: OwnServer;
let su: PocketBase;
let a: Awaited<ReturnType<typeof world>>;
const receivers: Receiver[] = [];

async function receiver(otherwise: number = 200) {
  const r = await new Receiver().start();
  r.otherwise = otherwise;
  receivers.push(r);
  return r;
}

async function setClock(offsetMs: number) {
  await su.send("/api/screenroom/test-clock", { method: "POST", body: { offsetMs } });
}

function endpointOf(url: string, events = ["candidate.invited"]) {
  return a.manager.pb.collection("webhook_endpoints").create({ company: a.company.id, url, events });
}

/** A new candidate of A's job: a candidate.invited event for every endpoint that wants it. */
function invite(label: string) {
  return a.manager.pb.collection("candidates").create({ job: a.job.id, email: uniqueEmail(label) });
}

/** The delivery of candidate's invitation to endpoint, once `done` says it is where the test waits for it. */
function deliveryOf(candidate: string, endpoint: string, done: (row: RecordModel) => boolean) {
  return until(async () => {
    const rows = await su.collection("webhook_deliveries").getFullList({ filter: su.filter("candidate = {:c} && endpoint = {:e}", { c: candidate, e: endpoint }) });
    return rows[0] && done(rows[0]) ? rows[0] : null;
  });
}

const sendTest = (pb: PocketBase, endpoint: string) => pb.send<RecordModel>(`/api/screenroom/webhook-endpoints/${endpoint}/test`, { method: "POST" });
const rotate = (pb: PocketBase, endpoint: string) => pb.send<RecordModel>(`/api/screenroom/webhook-endpoints/${endpoint}/rotate-secret`, { method: "POST" });

beforeAll(async () => {
  server = await useOwnServer({
    WEBHOOKS_ALLOW_PRIVATE_TARGETS: "1",
    WEBHOOKS_RETRY_BASE_MS: "200",
    WEBHOOKS_POLL_MS: "100",
    WEBHOOKS_DISABLE_AFTER_HOURS: "48",
  });
  su = await superuser();
  a = await world("manage-hooks");
});

afterEach(async () => {
  await setClock(0);
});

afterAll(async () => {
  for (const r of receivers) await r.stop();
  await server?.stop();
});

describe("Send a test event", () => {
  it("signs a webhook.test delivery, sends it now and answers with how it went", async () => {
    const r = await receiver();
    const endpoint = await endpointOf(r.url("/test"), QUIET);
    const delivery = await sendTest(a.manager.pb, endpoint.id);
    expect(delivery).toMatchObject({ endpoint: endpoint.id, event: "webhook.test", status: "succeeded", attempts: 1, lastStatus: 200, lastError: "", candidate: "" });
    expect(delivery.secret).toBeUndefined();
    const [request] = r.withId(delivery.id);
    expect(signaturesOf(request!)).toEqual([signatureBy(endpoint.secret as string, request!)]);
    expect(JSON.parse(request!.body)).toMatchObject({
      type: "webhook.test",
      data: { endpoint: { id: endpoint.id, url: endpoint.url }, company: { id: a.company.id, name: a.company.name }, sentBy: a.manager.user.id },
    });
    // it is in the endpoint's delivery log, as the screen lists it
    const listed = await a.manager.pb.collection("webhook_deliveries").getFullList({ filter: a.manager.pb.filter("endpoint = {:e}", { e: endpoint.id }) });
    expect(listed.map((d) => [d.id, d.event, d.status])).toEqual([[delivery.id, "webhook.test", "succeeded"]]);
  });

  it("reports a failure with its reason, never retries it, and is not sent again", async () => {
    const r = await receiver(503);
    const endpoint = await endpointOf(r.url("/down"), QUIET);
    const delivery = await sendTest(a.manager.pb, endpoint.id);
    expect(delivery).toMatchObject({ status: "failed", attempts: 1, lastStatus: 503, lastError: "The endpoint answered 503.", nextAttemptAt: "" });
    const again = await errorOf(() => a.manager.pb.send(`/api/screenroom/webhook-deliveries/${delivery.id}/send-again`, { method: "POST" }));
    expect({ status: again.status, message: again.response.message }).toEqual({ status: 400, message: "A test event is not sent again: send a new one from the endpoint." });
    expect((await su.collection("webhook_deliveries").getOne(delivery.id)).status).toBe("failed");
    expect(r.withId(delivery.id)).toHaveLength(1);
    // a test says nothing about the events that failed: it starts no run of failures
    expect((await su.collection("webhook_endpoints").getOne(endpoint.id)).failingSince).toBe("");
  });

  it("goes to a disabled endpoint too, so a repaired receiver can be checked before enabling it", async () => {
    const r = await receiver();
    const endpoint = await endpointOf(r.url("/paused"), QUIET);
    await a.manager.pb.collection("webhook_endpoints").update(endpoint.id, { enabled: false });
    const delivery = await sendTest(a.manager.pb, endpoint.id);
    expect(delivery).toMatchObject({ status: "succeeded", lastStatus: 200 });
    expect(r.withId(delivery.id)).toHaveLength(1);
  });

  it("sends one test at a time to an endpoint", async () => {
    const r = await receiver();
    r.answers.push({ status: 200, delayMs: 1500 });
    const endpoint = await endpointOf(r.url("/slow"), QUIET);
    const first = sendTest(a.manager.pb, endpoint.id);
    await until(() => r.received.length === 1);
    const second = await errorOf(() => sendTest(a.manager.pb, endpoint.id));
    expect({ status: second.status, message: second.response.message }).toEqual({ status: 409, message: "A test event is already being sent to this endpoint." });
    expect((await first).status).toBe("succeeded");
    expect((await sendTest(a.manager.pb, endpoint.id)).status).toBe("succeeded");
  });
});

describe("a redirect", () => {
  it("fails the delivery at once with where it pointed, one request, no retry, and is not followed", async () => {
    const elsewhere = await receiver();
    const r = await receiver();
    r.answers.push({ status: 301, headers: { Location: "https://example.com/new-hook" } }, { status: 307, headers: { Location: elsewhere.url("/moved") } });
    const endpoint = await endpointOf(r.url("/old"));
    const first = await invite("redirected");
    const failed = await deliveryOf(first.id, endpoint.id, (row) => row.status !== "pending");
    expect(failed).toMatchObject({
      status: "failed",
      attempts: 1,
      lastStatus: 301,
      nextAttemptAt: "",
      lastError:
        "The endpoint answered 301, a redirect to https://example.com/new-hook. Redirects are not followed, so this delivery is not retried: set the endpoint's URL to the address it redirects to.",
    });
    expect(r.withId(failed.id)).toHaveLength(1);

    const second = await invite("redirected-home");
    const local = await deliveryOf(second.id, endpoint.id, (row) => row.status !== "pending");
    expect(local).toMatchObject({ status: "failed", attempts: 1, lastStatus: 307 });
    expect(local.lastError).toContain(`a redirect to ${elsewhere.url("/moved")}.`);
    expect(elsewhere.connections).toBe(0);
  });
});

describe("rotating the secret", () => {
  it("shows the new secret once; every delivery is signed with it, and with the replaced one for 24 hours", async () => {
    const r = await receiver();
    const endpoint = await endpointOf(r.url("/rotating"));
    const first = endpoint.secret as string;
    const before = await invite("before-rotation");
    const old = await deliveryOf(before.id, endpoint.id, (row) => row.status === "succeeded");
    expect(signaturesOf(r.withId(old.id)[0]!)).toEqual([signatureBy(first, r.withId(old.id)[0]!)]);

    const rotatedAt = Date.now();
    const rotated = await rotate(a.manager.pb, endpoint.id);
    const second = rotated.secret as string;
    expect(second).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(second).not.toBe(first);
    expect(rotated.previousSecret).toBeUndefined();
    expect(Math.abs(Date.parse(rotated.previousSecretUntil) - (rotatedAt + 24 * HOUR))).toBeLessThan(60_000);
    expect(Math.abs(Date.parse(rotated.secretRotatedAt) - rotatedAt)).toBeLessThan(60_000);
    // shown once: no later read carries either secret
    const viewed = await a.manager.pb.collection("webhook_endpoints").getOne(endpoint.id);
    expect(JSON.stringify(viewed)).not.toContain(second.slice(6));
    expect(JSON.stringify(viewed)).not.toContain(first.slice(6));
    expect((await su.collection("webhook_endpoints").getOne(endpoint.id)).previousSecret).toBe(first);

    // a new event: the new secret's signature first, the old one's beside it
    const after = await invite("after-rotation");
    const fresh = await deliveryOf(after.id, endpoint.id, (row) => row.status === "succeeded");
    const freshRequest = r.withId(fresh.id)[0]!;
    expect(signaturesOf(freshRequest)).toEqual([signatureBy(second, freshRequest), signatureBy(first, freshRequest)]);
    // an event from before the rotation, sent again: signed now, so with the new secret too
    await a.manager.pb.send(`/api/screenroom/webhook-deliveries/${old.id}/send-again`, { method: "POST" });
    const resent = await until(() => r.withId(old.id)[1]);
    expect(signaturesOf(resent)).toEqual([signatureBy(second, resent), signatureBy(first, resent)]);

    // 24 hours later the replaced secret signs no more
    await setClock(24 * HOUR + 60_000);
    const later = await invite("day-after-rotation");
    const lone = await deliveryOf(later.id, endpoint.id, (row) => row.status === "succeeded");
    const loneRequest = r.withId(lone.id)[0]!;
    expect(signaturesOf(loneRequest)).toEqual([signatureBy(second, loneRequest)]);

    // rotating again: only the secret just replaced still signs, never the first one
    const third = (await rotate(a.manager.pb, endpoint.id)).secret as string;
    const again = await invite("second-rotation");
    const latest = await deliveryOf(again.id, endpoint.id, (row) => row.status === "succeeded");
    const latestRequest = r.withId(latest.id)[0]!;
    expect(signaturesOf(latestRequest)).toEqual([signatureBy(third, latestRequest), signatureBy(second, latestRequest)]);
    expect(signaturesOf(latestRequest)).not.toContain(signatureBy(first, latestRequest));
  });
});

describe("an endpoint that keeps failing", () => {
  let fellow: Awaited<ReturnType<typeof signUp>>;
  beforeAll(async () => {
    fellow = await signUp({ email: uniqueEmail("manage-hooks-fellow") });
    const invitation = await a.manager.pb.collection("manager_invites").create({ company: a.company.id, email: fellow.user.email });
    expect((await acceptInvite(invitation.id, fellow.pb.authStore.token)).status).toBe(200);
  });

  it("is disabled by the first failure once it has failed for WEBHOOKS_DISABLE_AFTER_HOURS, and the owner alone is told, once", async () => {
    const r = await receiver(500);
    const endpoint = await endpointOf(r.url("/broken"));
    const first = await invite("failing-1");
    await deliveryOf(first.id, endpoint.id, (row) => row.attempts >= 1);
    const since = (await a.manager.pb.collection("webhook_endpoints").getOne(endpoint.id)).failingSince as string;
    expect(since).not.toBe("");

    // 47 hours on: another failure, still enabled, the run still counted from its first failure
    await setClock(47 * HOUR);
    const second = await invite("failing-2");
    await deliveryOf(second.id, endpoint.id, (row) => row.attempts >= 1);
    expect(await a.manager.pb.collection("webhook_endpoints").getOne(endpoint.id)).toMatchObject({ enabled: true, failingSince: since, disabledAt: "" });

    // 49 hours on: the next failure disables it
    await setClock(49 * HOUR);
    const third = await invite("failing-3");
    await deliveryOf(third.id, endpoint.id, (row) => row.attempts >= 1);
    const disabled = await a.manager.pb.collection("webhook_endpoints").getOne(endpoint.id);
    expect(disabled).toMatchObject({ enabled: false, failingSince: since, disabledReason: "The endpoint answered 500." });
    expect(Date.parse(disabled.disabledAt) - Date.parse(since)).toBeGreaterThanOrEqual(48 * HOUR);

    const subject = `Webhook endpoint disabled: ${endpoint.url}`;
    const mail = await waitForMail(a.manager.user.email, new RegExp(`^${subject.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}$`));
    expect(mail.html).toContain(`Screenroom disabled the webhook endpoint <strong>${endpoint.url}</strong> of <strong>${a.company.name}</strong>`);
    expect(mail.html).toContain("every delivery to it has failed since");
    expect(mail.html).toContain("The last error: The endpoint answered 500.");
    expect(mail.html).toContain(`href="http://app.screenroom.test/companies/${a.company.id}/webhooks"`);

    // nothing more is sent to it: new events record no delivery, and the retry of the attempt that disabled it (due
    // 200 ms later) ends without a request
    const fourth = await invite("failing-4");
    expect(await su.collection("webhook_deliveries").getFullList({ filter: su.filter("candidate = {:c} && endpoint = {:e}", { c: fourth.id, e: endpoint.id }) })).toEqual([]);
    // (on a busy machine the second delivery's retry can come due at the same hour and be the failure that disables
    // it: then the third's first attempt already finds it disabled and sends nothing)
    const ended = await deliveryOf(third.id, endpoint.id, (row) => row.status === "failed");
    expect(ended).toMatchObject({ lastStatus: 0, lastError: "The endpoint is disabled." });
    expect([1, 2]).toContain(ended.attempts);
    // a request for each attempt before the one that found it disabled
    expect(r.withId(ended.id)).toHaveLength(ended.attempts - 1);
    const notices = await su.collection("mail_queue").getFullList({ filter: su.filter("subject = {:s}", { s: mail.subject }) });
    // the owner's alone, though the company has another manager
    expect(notices.map((n) => n.to)).toEqual([a.manager.user.email]);
    expect((await su.collection("companies").getOne(a.company.id)).managers).toContain(fellow.user.id);

    // enabled again by a manager: a fresh start, with nothing of the run left
    const enabled = await a.manager.pb.collection("webhook_endpoints").update(endpoint.id, { enabled: true });
    expect(enabled).toMatchObject({ enabled: true, failingSince: "", disabledAt: "", disabledReason: "" });
  });

  it("starts its run afresh after any success", async () => {
    const r = await receiver();
    r.answers.push(500);
    const endpoint = await endpointOf(r.url("/flaky"));
    const first = await invite("flaky-1");
    await deliveryOf(first.id, endpoint.id, (row) => row.status === "succeeded" && row.attempts === 2);
    expect((await a.manager.pb.collection("webhook_endpoints").getOne(endpoint.id)).failingSince).toBe("");

    await setClock(49 * HOUR);
    r.answers.push(500);
    const second = await invite("flaky-2");
    await deliveryOf(second.id, endpoint.id, (row) => row.attempts >= 1);
    const now = Date.now() + 49 * HOUR;
    const after = await a.manager.pb.collection("webhook_endpoints").getOne(endpoint.id);
    expect(after.enabled).toBe(true);
    expect(Math.abs(Date.parse(after.failingSince) - now)).toBeLessThan(60_000);
  });

  it("keeps its health and secrets as the server wrote them, whatever a manager sends", async () => {
    const endpoint = await endpointOf("https://hooks.invalid/forged");
    const forged = {
      failingSince: "2001-01-01 00:00:00.000Z",
      disabledAt: "2001-01-02 00:00:00.000Z",
      disabledReason: "forged",
      previousSecret: "whsec_" + "A".repeat(32),
      previousSecretUntil: "2999-01-01 00:00:00.000Z",
      secretRotatedAt: "2001-01-01 00:00:00.000Z",
    };
    await a.manager.pb.collection("webhook_endpoints").update(endpoint.id, { ...forged, events: ["candidate.decided"] });
    const created = await a.manager.pb.collection("webhook_endpoints").create({ company: a.company.id, url: "https://hooks.invalid/forged-2", events: ["candidate.decided"], ...forged });
    for (const id of [endpoint.id, created.id]) {
      expect(await su.collection("webhook_endpoints").getOne(id)).toMatchObject({
        failingSince: "",
        disabledAt: "",
        disabledReason: "",
        previousSecret: "",
        previousSecretUntil: "",
        secretRotatedAt: "",
      });
    }
  });
});
