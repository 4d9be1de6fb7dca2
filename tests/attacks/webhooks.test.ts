// Issue 18 point 2, as an attacker: an endpoint's signing secret (whsec_..., hidden) is shown once, in the create
// response, and no filter, sort, expand, fields list or batch request reaches it or changes it afterwards; another
// company's manager and a candidate see and change nothing of a company's endpoints and deliveries; nobody writes a
// delivery through the API. The shared server has no WEBHOOKS_ALLOW_PRIVATE_TARGETS, so endpoints here are under
// .invalid (never resolves): nothing is sent anywhere.
import type PocketBase from "pocketbase";
import type { RecordModel } from "pocketbase";
import { beforeAll, describe, expect, it } from "vitest";
import { asCandidate, errorOf, statusOf, superuser, world } from "../helpers";
import { listOutcome } from "../support";
import { firstEvent } from "./realtime";

let a: Awaited<ReturnType<typeof world>>;
let b: Awaited<ReturnType<typeof world>>;
let su: PocketBase;
let endpoint: RecordModel;
let secret: string;
let delivery: RecordModel;

beforeAll(async () => {
  a = await world("hook-victim");
  b = await world("hook-attacker");
  su = await superuser();
  endpoint = await a.manager.pb.collection("webhook_endpoints").create({ company: a.company.id, url: "https://hooks.invalid/in", events: ["candidate.decided"] });
  secret = endpoint.secret as string;
  delivery = await su.collection("webhook_deliveries").create({
    endpoint: endpoint.id,
    candidate: a.candidate.id,
    event: "candidate.decided",
    status: "failed",
    attempts: 1,
    payload: { type: "candidate.decided", timestamp: new Date().toISOString(), data: {} },
  });
});

describe("the filter oracle on the secret", () => {
  // the true secret's first characters after whsec_, and a false guess
  const truth = () => secret.slice(0, 8);
  const lie = () => "whsec_" + (secret[6] === "A" ? "B" : "A");

  it("gives identical answers to a true and a false guess, by every operator, to the endpoint's own managers", async () => {
    expect(secret).toMatch(/^whsec_/);
    const filters: [string, (g: string) => string][] = [
      ["=", (g) => `secret = '${g === truth() ? secret : "whsec_" + "A".repeat(32)}'`],
      [">=", (g) => `secret >= '${g}'`],
      ["<", (g) => `secret < '${g}'`],
      ["!=", (g) => `secret != '${g === truth() ? secret : "x"}'`],
      ["~", (g) => `secret ~ '${g}%'`],
      ["!~", (g) => `secret !~ '${g}%'`],
      ["with its own id", (g) => `id = '${endpoint.id}' && secret >= '${g}'`],
      ["lower", (g) => `secret:lower >= '${g.toLowerCase()}'`],
      ["length", (g) => `secret:length >= ${g === truth() ? 38 : 39}`],
    ];
    for (const [what, filter] of filters) {
      const right = await listOutcome(a.manager.pb, "webhook_endpoints", { filter: filter(truth()) });
      const wrong = await listOutcome(a.manager.pb, "webhook_endpoints", { filter: filter(lie()) });
      expect({ what, right }).toEqual({ what, right: wrong });
      expect({ what, status: right.status }).toEqual({ what, status: 400 });
    }
  });

  it("gives identical answers to sorts by the secret", async () => {
    const asc = await listOutcome(a.manager.pb, "webhook_endpoints", { sort: "secret" });
    const desc = await listOutcome(a.manager.pb, "webhook_endpoints", { sort: "-secret" });
    expect(asc).toEqual(desc);
    expect(asc.status).toBe(400);
  });

  it("gives identical answers through relations: from deliveries and companies", async () => {
    const guesses: [string, (g: string) => string][] = [
      ["webhook_deliveries", (g) => `endpoint.secret >= '${g}'`],
      ["companies", (g) => `webhook_endpoints_via_company.secret >= '${g}'`],
      ["candidates", (g) => `webhook_deliveries_via_candidate.endpoint.secret >= '${g}'`],
      ["jobs", (g) => `@collection.webhook_endpoints.secret >= '${g}'`],
    ];
    for (const [collection, filter] of guesses) {
      for (const pb of [a.manager.pb, b.manager.pb]) {
        const right = await listOutcome(pb, collection, { filter: filter(truth()) });
        const wrong = await listOutcome(pb, collection, { filter: filter(lie()) });
        expect({ collection, right }).toEqual({ collection, right: wrong });
        expect({ collection, status: right.status }).toEqual({ collection, status: 400 });
      }
    }
  });

  it("is in no view, list, fields list or expand", async () => {
    const viewed = await a.manager.pb.collection("webhook_endpoints").getOne(endpoint.id, { fields: "id,secret" });
    expect(viewed).toEqual({ id: endpoint.id });
    const listed = await a.manager.pb.collection("webhook_endpoints").getFullList({ fields: "secret", filter: a.manager.pb.filter("id = {:id}", { id: endpoint.id }) });
    expect(listed).toEqual([{}]);
    const expanded = await a.manager.pb.collection("webhook_deliveries").getOne(delivery.id, { expand: "endpoint" });
    expect(expanded.expand?.endpoint?.id).toBe(endpoint.id);
    expect(JSON.stringify(expanded)).not.toContain(secret.slice(6));
  });
});

describe("the create response", () => {
  it("is the only place the secret appears: the realtime create event of the same record has none", async () => {
    let made: RecordModel | undefined;
    const data = await firstEvent(a.manager.pb.authStore.token, "webhook_endpoints/*", async () => {
      made = await a.manager.pb.collection("webhook_endpoints").create({ company: a.company.id, url: "https://hooks.invalid/live", events: ["candidate.decided"] });
    });
    expect(made!.secret).toMatch(/^whsec_/);
    expect(data).toContain(made!.id);
    expect(data).not.toContain("secret");
    expect(data).not.toContain(String(made!.secret).slice(6));
  });
});

describe("changing the secret", () => {
  it("is refused to the records API and to a batch: the stored secret stays the one the server made", async () => {
    const forged = "whsec_" + "A".repeat(32);
    await a.manager.pb.collection("webhook_endpoints").update(endpoint.id, { secret: forged }).catch(() => undefined);
    const batch = a.manager.pb.createBatch();
    batch.collection("webhook_endpoints").update(endpoint.id, { secret: forged });
    batch.collection("webhook_endpoints").create({ company: a.company.id, url: "https://hooks.invalid/batch", events: ["candidate.decided"], secret: forged });
    const results = await batch.send().catch(() => null);
    expect((await su.collection("webhook_endpoints").getOne(endpoint.id)).secret).toBe(secret);
    const made = await su.collection("webhook_endpoints").getFullList({ filter: su.filter("url = 'https://hooks.invalid/batch'") });
    for (const record of made) expect(record.secret).not.toBe(forged);
    // a batch's responses carry no secret to a manager either
    expect(JSON.stringify(results ?? [])).not.toContain(secret.slice(6));
  });

  it("a manager's own create chooses no secret", async () => {
    const forged = "whsec_" + "B".repeat(32);
    const made = await a.manager.pb.collection("webhook_endpoints").create({ company: a.company.id, url: "https://hooks.invalid/own", events: ["candidate.decided"], secret: forged });
    expect(made.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(made.secret).not.toBe(forged);
  });
});

describe("another company's manager", () => {
  it("sees none of the endpoints and deliveries, and changes nothing", async () => {
    const pb = b.manager.pb;
    expect(await pb.collection("webhook_endpoints").getFullList({ filter: pb.filter("company = {:c}", { c: a.company.id }) })).toEqual([]);
    expect(await pb.collection("webhook_deliveries").getFullList({ filter: pb.filter("endpoint = {:e}", { e: endpoint.id }) })).toEqual([]);
    expect(await statusOf(() => pb.collection("webhook_endpoints").getOne(endpoint.id))).toBe(404);
    expect(await statusOf(() => pb.collection("webhook_deliveries").getOne(delivery.id))).toBe(404);
    expect(await statusOf(() => pb.collection("webhook_endpoints").update(endpoint.id, { url: "https://attacker.example.com/x" }))).toBe(404);
    expect(await statusOf(() => pb.collection("webhook_endpoints").delete(endpoint.id))).toBe(404);
    // an endpoint in a's company, to receive a's events
    expect(await statusOf(() => pb.collection("webhook_endpoints").create({ company: a.company.id, url: "https://hooks.invalid/steal", events: ["candidate.invited"] }))).toBe(400);
    expect((await errorOf(() => pb.send(`/api/screenroom/webhook-deliveries/${delivery.id}/send-again`, { method: "POST" }))).status).toBe(404);
    const stored = await su.collection("webhook_endpoints").getOne(endpoint.id);
    expect(stored.url).toBe("https://hooks.invalid/in");
  });

  it("cannot move a's endpoint into b's company, nor b's endpoint into a's", async () => {
    expect(await statusOf(() => a.manager.pb.collection("webhook_endpoints").update(endpoint.id, { company: b.company.id }))).toBe(404);
    const own = await b.manager.pb.collection("webhook_endpoints").create({ company: b.company.id, url: "https://hooks.invalid/b", events: ["candidate.invited"] });
    expect(await statusOf(() => b.manager.pb.collection("webhook_endpoints").update(own.id, { company: a.company.id }))).toBe(404);
    expect((await su.collection("webhook_endpoints").getOne(own.id)).company).toBe(b.company.id);
    expect((await su.collection("webhook_endpoints").getOne(endpoint.id)).company).toBe(a.company.id);
  });
});

describe("a candidate", () => {
  it("sees nothing of its company's endpoints or of its own deliveries", async () => {
    const pb = asCandidate(a.candidate.id);
    expect(await pb.collection("webhook_endpoints").getFullList()).toEqual([]);
    expect(await pb.collection("webhook_deliveries").getFullList()).toEqual([]);
    expect(await statusOf(() => pb.collection("webhook_deliveries").getOne(delivery.id))).toBe(404);
    expect(await statusOf(() => pb.send(`/api/screenroom/webhook-deliveries/${delivery.id}/send-again`, { method: "POST" }))).toBe(404);
  });
});

describe("deliveries", () => {
  it("are written by nobody through the records API or a batch, not even the company's managers", async () => {
    const pb = a.manager.pb;
    const body = { endpoint: endpoint.id, event: "candidate.decided", status: "pending", attempts: 0, payload: { type: "forged" } };
    expect(await statusOf(() => pb.collection("webhook_deliveries").create(body))).toBe(403);
    // no update or delete rule at all: PocketBase answers 403 (superusers only)
    expect(await statusOf(() => pb.collection("webhook_deliveries").update(delivery.id, { status: "pending" }))).toBe(403);
    expect(await statusOf(() => pb.collection("webhook_deliveries").delete(delivery.id))).toBe(403);
    const batch = pb.createBatch();
    batch.collection("webhook_deliveries").create(body);
    expect(await statusOf(() => batch.send())).toBeGreaterThanOrEqual(400);
    expect(await su.collection("webhook_deliveries").getFullList({ filter: su.filter("endpoint = {:e}", { e: endpoint.id }) })).toHaveLength(1);
    expect((await su.collection("webhook_deliveries").getOne(delivery.id)).status).toBe("failed");
  });
});
