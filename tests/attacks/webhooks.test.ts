// Issue 18 point 2, as an attacker: an endpoint's signing secret (whsec_..., hidden) is shown once, in the create
// response, and no filter, sort, expand, fields list or batch request reaches it or changes it afterwards; another
// company's manager and a candidate see and change nothing of a company's endpoints and deliveries; nobody writes a
// delivery through the API. The shared server has no WEBHOOKS_ALLOW_PRIVATE_TARGETS, so endpoints here are under
// .invalid (never resolves): nothing is sent anywhere.
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type PocketBase from "pocketbase";
import { ClientResponseError, type RecordModel } from "pocketbase";
import { beforeAll, describe, expect, it } from "vitest";
import { asCandidate, errorOf, statusOf, superuser, uniqueEmail, useOwnServer, world } from "../helpers";
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
    // neither the secret nor the one a rotation replaced (the rotation's dates are named after it, and may show)
    expect(data).not.toContain('"secret"');
    expect(data).not.toContain('"previousSecret"');
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

// Security round three, findings 4 and 5: a loopback or private target in any spelling. The save check judges the
// host the sender's request will name (IDNA-mapped full stops and digits, every IPv6 form, IPv4 embedded in IPv6,
// numeric IPv4 forms, trailing dots); the sender's dialer judges the address it is about to connect to, with the same
// rule (server/internal/webhooks/webhooks.go).
const PRIVATE = "This address is on a private network. Webhooks go to public addresses only.";

/** What saving an endpoint with `url` gives: the url field's error, or "saved" (the endpoint is then deleted). */
async function saveOutcome(pb: PocketBase, company: string, url: string) {
  try {
    const made = await pb.collection("webhook_endpoints").create({ company, url, events: ["candidate.decided"], enabled: false });
    await pb.collection("webhook_endpoints").delete(made.id);
    return { url, saved: true };
  } catch (err) {
    if (!(err instanceof ClientResponseError)) throw err;
    const data = err.response.data as Record<string, { code: string; message: string }>;
    return { url, status: err.status, fields: Object.keys(data), code: data.url?.code, message: data.url?.message };
  }
}

describe("a loopback or private webhook target in another spelling", () => {
  it("is refused when a manager saves it, with the url field's message, in every spelling", async () => {
    const spellings = [
      // the four that were saved
      "https://[0:0:0:0:0:0:0:1]/",
      "https://127\u30020\u30020\u30021/",
      "https://[64:ff9b::7f00:1]/",
      "https://[::127.0.0.1]/",
      // the other full stops IDNA maps to dots, fullwidth and circled digits, a name in circled letters
      "https://127\uff0e0\uff0e0\uff0e1/",
      "https://127\uff610\uff610\uff611/",
      "https://169\u3002254\u3002169\u3002254/latest/meta-data",
      "https://\uff11\uff12\uff17.0.0.1/",
      "https://\u2460\u2461\u2466.0.0.1/",
      "https://\u24db\u24de\u24d2\u24d0\u24db\u24d7\u24de\u24e2\u24e3/",
      // IPv6: long forms, IPv4-mapped, IPv4-compatible (::/96), NAT64 (well-known and local-use), 6to4, Teredo, zones
      "https://[0000:0000:0000:0000:0000:0000:0000:0001]/",
      "https://[::]/",
      "https://[::ffff:127.0.0.1]/",
      "https://[::ffff:7f00:1]/",
      "https://[::ffff:a9fe:a9fe]/",
      "https://[::7f00:1]/",
      "https://[::10.0.0.1]/",
      "https://[64:ff9b::127.0.0.1]/",
      "https://[64:ff9b::a9fe:a9fe]/",
      "https://[64:ff9b:1::a00:1]/",
      "https://[2002:7f00:1::1]/",
      "https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/",
      "https://[fe80::1%25eth0]/",
      "https://[FD00::1]/",
      // IPv4: decimal, octal, hex, short forms, trailing dots
      "https://2130706433/",
      "https://0x7f.1/",
      "https://0x7F000001/",
      "https://0177.0.0.1/",
      "https://017700000001/",
      "https://127.1/",
      "https://0/",
      "https://127.0.0.1./",
      "https://0xa9.0xfe.0xa9.0xfe/",
      "https://user@10.0.0.1:8443/hook",
      // names that never name a public host
      "https://LOCALHOST./",
      "https://hooks.localhost/",
      "https://metadata.google.internal/",
    ].map((url) => JSON.parse(`"${url}"`) as string);
    const outcomes = [];
    for (const url of spellings) outcomes.push(await saveOutcome(a.manager.pb, a.company.id, url));
    expect(outcomes).toEqual(spellings.map((url) => ({ url, status: 400, fields: ["url"], code: "validation_invalid_url", message: PRIVATE })));
    // and an update to one of them is refused alike, the stored URL unchanged
    const update = await errorOf(() => a.manager.pb.collection("webhook_endpoints").update(endpoint.id, { url: spellings[3] }));
    expect({ status: update.status, message: (update.response.data as Record<string, { message: string }>).url?.message }).toEqual({ status: 400, message: PRIVATE });
    expect((await su.collection("webhook_endpoints").getOne(endpoint.id)).url).toBe("https://hooks.invalid/in");
  });

  it("leaves public targets alone, in the same spellings", async () => {
    const publicTargets = ["https://93.184.216.34/hook", "https://[2606:4700:4700::1111]/hook", "https://[64:ff9b::5db8:d822]/", "https://0x5d.0xb8.0xd8.0x22/", "https://hooks\u3002example\u3002com/in"].map(
      (url) => JSON.parse(`"${url}"`) as string,
    );
    const outcomes = [];
    for (const url of publicTargets) outcomes.push(await saveOutcome(a.manager.pb, a.company.id, url));
    expect(outcomes).toEqual(publicTargets.map((url) => ({ url, saved: true })));
  });

  it("is refused by the sender's dialer when an endpoint already holds it: [::127.0.0.1] is 'not public', and nothing connects", async () => {
    // a listener on 127.0.0.1 (the address ::127.0.0.1 spells) that counts connections
    let connections = 0;
    const listener = createServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
    const port = (listener.address() as AddressInfo).port;
    const dataDir = mkdtempSync(join(tmpdir(), "screenroom-hooks-spelling-"));
    const fast = { WEBHOOKS_RETRY_BASE_MS: "200", WEBHOOKS_POLL_MS: "100" };
    try {
      // stored while the test setting allowed private targets (as an endpoint saved before the save check knew
      // this spelling); the server then runs without the setting, on the same data and port
      const allowed = await useOwnServer({ WEBHOOKS_ALLOW_PRIVATE_TARGETS: "1", ...fast }, { dataDir });
      const w = await world("spelling");
      const stored = await w.manager.pb
        .collection("webhook_endpoints")
        .create({ company: w.company.id, url: `https://[::127.0.0.1]:${port}/hook`, events: ["candidate.invited"] });
      await allowed.stop();
      const refusing = await useOwnServer(fast, { dataDir, port: allowed.port });
      try {
        const candidate = await w.manager.pb.collection("candidates").create({ job: w.job.id, email: uniqueEmail("spelling") });
        const own = await superuser();
        // the first attempt's outcome, whatever it is (a retried failure would stay pending)
        let delivery: RecordModel | undefined;
        while (!delivery) {
          const [row] = await own.collection("webhook_deliveries").getFullList({ filter: own.filter("candidate = {:c}", { c: candidate.id }) });
          if (row && row.attempts >= 1) delivery = row;
          else await new Promise((r) => setTimeout(r, 50));
        }
        expect({ error: delivery.lastError, status: delivery.status, attempts: delivery.attempts, endpoint: delivery.endpoint }).toEqual({
          error: expect.stringMatching(/^Refused: the address ::7f00:1 is not public .*Webhooks go to public addresses only\.$/),
          status: "failed",
          attempts: 1,
          endpoint: stored.id,
        });
        expect(connections).toBe(0);
      } finally {
        await refusing.stop();
      }
    } finally {
      listener.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
