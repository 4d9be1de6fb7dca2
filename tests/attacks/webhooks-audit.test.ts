// As an attacker: the webhook routes a manager acts with (test event, secret rotation: server/internal/webhooks/
// endpoint_routes.go) and the audit log's filter and CSV (server/internal/lifecycle/audit_log_filter.go).
// - The filter's values are checked and bound, never written into a query: values made to break out of one
//   (quotes, operators, SQL, PocketBase filter syntax, NUL, lists, very long, repeated) are refused on their field or
//   change nothing, and never show another company's entries; parameters the route does not read (company, filter,
//   sort) change nothing. Another company's manager learns nothing from a true and a false guess.
// - The replaced secret of a rotation is as hidden as the secret: no filter, sort, fields list, expand, realtime
//   event or batch reaches or changes it, nor the endpoint's health fields.
// - A test event is a request the server makes to an address a manager chose: it goes nowhere the sender would
//   not go (a stored loopback endpoint is refused when the server connects, as for every event), and a manager sends
//   RATE_LIMIT_WEBHOOK_TESTS of them at most.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import PocketBase from "pocketbase";
import type { RecordModel } from "pocketbase";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorOf, keyOf, pbUrl, statusOf, superuser, useOwnServer, world } from "../helpers";
import { listOutcome } from "../support";
import { Receiver } from "../webhook-support";
import { firstEvent } from "./realtime";

let a: Awaited<ReturnType<typeof world>>;
let b: Awaited<ReturnType<typeof world>>;
let su: PocketBase;
let endpoint: RecordModel;
let replaced: string;

async function exportAs(pb: PocketBase, candidate: string) {
  const res = await fetch(`${pbUrl()}/api/screenroom/candidates/${candidate}/export`, { headers: { Authorization: pb.authStore.token } });
  await res.arrayBuffer();
  expect(res.status).toBe(200);
}

/** Who asks: a client's token, or other headers (a candidate's key, nothing for a visitor). */
type Asker = PocketBase | Record<string, string>;
function headersOf(asker: Asker): Record<string, string> {
  if (!(asker instanceof PocketBase)) return asker;
  return asker.authStore.token ? { Authorization: asker.authStore.token } : {};
}

/** GET the audit log with a raw query string: status and body text. */
async function rawLog(asker: Asker, query: string, company = a.company.id, csv = false) {
  const res = await fetch(`${pbUrl()}/api/screenroom/companies/${company}/audit-log${csv ? ".csv" : ""}?${query}`, { headers: headersOf(asker) });
  return { status: res.status, body: await res.text() };
}

beforeAll(async () => {
  a = await world("attack-audit-a");
  b = await world("attack-audit-b");
  su = await superuser();
  await exportAs(a.manager.pb, a.candidate.id);
  await exportAs(b.manager.pb, b.candidate.id);
  endpoint = await a.manager.pb.collection("webhook_endpoints").create({ company: a.company.id, url: "https://hooks.invalid/attack", events: ["candidate.decided"] });
  replaced = endpoint.secret as string;
  await a.manager.pb.send(`/api/screenroom/webhook-endpoints/${endpoint.id}/rotate-secret`, { method: "POST" });
  expect((await su.collection("webhook_endpoints").getOne(endpoint.id)).previousSecret).toBe(replaced);
});

describe("the audit log's filter", () => {
  const abused: [string, string][] = [
    ["actor", "' OR 1=1 --"],
    ["actor", "manager' OR '1'='1"],
    ["actor", '") || company != ("'],
    ["actor", "manager) OR (1=1"],
    ["actor", "MANAGER"],
    ["actor", "abcdefghijklmn%"],
    ["actor", "abcdefghijklmno\u0000"],
    ["actor", "a".repeat(15) + "…".repeat(5000)],
    ["action", "export' OR '1'='1"],
    ["action", "export || action != ''"],
    ["action", "export%"],
    ["action", "*"],
    ["action", "export\u0000erase"],
    ["from", "2000-01-01' OR '1'='1"],
    ["from", "2000-01-01T00:00:00Z"],
    ["from", "0000-00-00"],
    ["to", "9999-99-99"],
    ["to", "-2000-01-01"],
    ["from", "２０２４-０１-０１"],
  ];

  const cases = abused.map(([field, value]) => [field, value.length > 40 ? `${value.slice(0, 40)}… (${value.length} characters)` : value, value]);
  it.each(cases)("refuses %s=%j on its field, with no entry of anyone's", async (field, _label, value) => {
    for (const csv of [false, true]) {
      const { status, body } = await rawLog(a.manager.pb, `${field}=${encodeURIComponent(value!)}`, a.company.id, csv);
      expect({ csv, status }).toEqual({ csv, status: 400 });
      expect(Object.keys(JSON.parse(body).data)).toEqual([field]);
      expect(body).not.toContain(a.candidate.id);
      expect(body).not.toContain(b.candidate.id);
    }
  });

  it("refuses a parameter given twice, rather than choosing one", async () => {
    for (const query of ["action=export&action=erase", "actor=manager&actor=system", "from=2000-01-01&from=2099-01-01", "to=2099-01-01&to=2000-01-01"]) {
      const { status, body } = await rawLog(a.manager.pb, query);
      expect({ query, status }).toEqual({ query, status: 400 });
      expect(body).not.toContain(a.candidate.id);
    }
  });

  it("reads nothing it does not know: another company, a filter or a sort of the caller's change nothing", async () => {
    const plain = JSON.parse((await rawLog(a.manager.pb, "")).body) as { items: RecordModel[] };
    expect(plain.items.map((e) => e.candidateId)).toEqual([a.candidate.id]);
    for (const query of [
      `company=${b.company.id}`,
      `filter=${encodeURIComponent(`company = '${b.company.id}'`)}`,
      `filter=${encodeURIComponent("1=1) || (1=1")}`,
      "sort=candidateId",
      // a list is a parameter of another name: not the action filter
      "action[]=erase&action[]=withdraw",
      `actor=${b.manager.user.id}`,
    ]) {
      const { status, body } = await rawLog(a.manager.pb, query);
      expect({ query, status }).toEqual({ query, status: 200 });
      expect(body).not.toContain(b.candidate.id);
      expect(body).not.toContain(b.company.id);
      const items = (JSON.parse(body) as { items: RecordModel[] }).items;
      expect(items.map((e) => e.candidateId)).toEqual(query.startsWith("actor=") ? [] : [a.candidate.id]);
    }
    // and B's own manager, asking with A's company in the query, reads B's log only
    const theirs = JSON.parse((await rawLog(b.manager.pb, `company=${a.company.id}`, b.company.id)).body) as { items: RecordModel[] };
    expect(theirs.items.map((e) => e.candidateId)).toEqual([b.candidate.id]);
  });

  it("answers another company's manager, a candidate and a visitor alike for a true and a false guess", async () => {
    const guesses: [string, string][] = [
      ["action=export", "action=erase"],
      [`actor=${a.manager.user.id}`, `actor=${b.manager.user.id}`],
      ["actor=manager", "actor=retention"],
      ["from=2000-01-01", "from=2999-01-01"],
      [`filter=${encodeURIComponent(`candidateId = '${a.candidate.id}'`)}`, "filter=x"],
    ];
    const candidate = { "X-Candidate-Key": (await keyOf(a.candidate.id))! };
    for (const asker of [b.manager.pb, candidate, {}]) {
      for (const [right, wrong] of guesses) {
        for (const csv of [false, true]) {
          const r = await rawLog(asker, right, a.company.id, csv);
          const w = await rawLog(asker, wrong, a.company.id, csv);
          expect({ right, r }).toEqual({ right, r: w });
          expect(r.status).toBe(404);
        }
      }
    }
  });
});

describe("the replaced secret of a rotation", () => {
  const truth = () => replaced.slice(0, 8);
  const lie = () => "whsec_" + (replaced[6] === "A" ? "B" : "A");

  it("gives identical answers to a true and a false guess, by filter and sort, to the endpoint's own managers and others", async () => {
    const probes: [string, (g: string) => Record<string, string>][] = [
      ["webhook_endpoints", (g) => ({ filter: `previousSecret >= '${g}'` })],
      ["webhook_endpoints", (g) => ({ filter: `previousSecret ~ '${g}%'` })],
      ["webhook_endpoints", (g) => ({ filter: `previousSecret:length >= ${g === truth() ? 38 : 39}` })],
      ["webhook_endpoints", (g) => ({ filter: `id = '${endpoint.id}' && previousSecret != '${g}'` })],
      ["webhook_endpoints", (g) => ({ sort: g === truth() ? "previousSecret" : "-previousSecret" })],
      ["webhook_deliveries", (g) => ({ filter: `endpoint.previousSecret >= '${g}'` })],
      ["companies", (g) => ({ filter: `webhook_endpoints_via_company.previousSecret >= '${g}'` })],
    ];
    for (const pb of [a.manager.pb, b.manager.pb]) {
      for (const [collection, query] of probes) {
        const right = await listOutcome(pb, collection, query(truth()));
        const wrong = await listOutcome(pb, collection, query(lie()));
        expect({ collection, query: query(truth()), right }).toEqual({ collection, query: query(truth()), right: wrong });
        expect(right.status).toBe(400);
      }
    }
  });

  it("is in no view, fields list, expand or realtime event, and the new one only in the rotation's answer", async () => {
    const viewed = await a.manager.pb.collection("webhook_endpoints").getOne(endpoint.id, { fields: "id,previousSecret,secret" });
    expect(viewed).toEqual({ id: endpoint.id });
    const company = await a.manager.pb.collection("companies").getOne(a.company.id, { expand: "webhook_endpoints_via_company" });
    expect(JSON.stringify(company)).not.toContain(replaced.slice(6));
    let fresh = "";
    const data = await firstEvent(a.manager.pb.authStore.token, "webhook_endpoints/*", async () => {
      fresh = (await a.manager.pb.send<RecordModel>(`/api/screenroom/webhook-endpoints/${endpoint.id}/rotate-secret`, { method: "POST" })).secret as string;
    });
    expect(data).toContain(endpoint.id);
    expect(data).not.toContain(fresh.slice(6));
    expect(data).not.toContain("ecret\":\"whsec");
    replaced = (await su.collection("webhook_endpoints").getOne(endpoint.id)).previousSecret as string;
    const listed = JSON.stringify(await a.manager.pb.collection("webhook_endpoints").getFullList());
    expect(listed).not.toContain(fresh.slice(6));
    expect(listed).not.toContain(replaced.slice(6));
  });

  it("is changed by no records API call or batch, nor are the endpoint's health fields", async () => {
    const before = await su.collection("webhook_endpoints").getOne(endpoint.id);
    const forged = { previousSecret: "whsec_" + "A".repeat(32), previousSecretUntil: "2999-01-01 00:00:00.000Z", disabledAt: "2001-01-01 00:00:00.000Z", failingSince: "2001-01-01 00:00:00.000Z" };
    await a.manager.pb.collection("webhook_endpoints").update(endpoint.id, forged);
    const batch = a.manager.pb.createBatch();
    batch.collection("webhook_endpoints").update(endpoint.id, forged);
    await batch.send().catch(() => undefined);
    await b.manager.pb.collection("webhook_endpoints").update(endpoint.id, { enabled: false }).catch(() => undefined);
    const after = await su.collection("webhook_endpoints").getOne(endpoint.id);
    for (const field of ["secret", "previousSecret", "previousSecretUntil", "secretRotatedAt", "failingSince", "disabledAt", "disabledReason", "enabled"]) {
      expect({ field, value: after[field] }).toEqual({ field, value: before[field] });
    }
  });
});

describe("a test event where the sender may not go", () => {
  let dataDir: string;
  let receiver: Receiver;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "screenroom-hook-tests-"));
    receiver = await new Receiver().start();
  });

  afterAll(async () => {
    await receiver?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("is refused at connect time for a stored loopback endpoint, nothing reaches it, and a manager's tests are limited", async () => {
    // the endpoint stored while a setting allowed loopback (as a public name resolving to 127.0.0.1 passes the save
    // check); then the server runs without it, with a low limit of test events
    const allowed = await useOwnServer({ WEBHOOKS_ALLOW_PRIVATE_TARGETS: "1" }, { dataDir });
    const w = await world("test-event-ssrf");
    const other = await world("test-event-other");
    const loopback = await w.manager.pb.collection("webhook_endpoints").create({ company: w.company.id, url: `https://127.0.0.1:${receiver.port}/hook`, events: ["candidate.decided"] });
    await allowed.stop();
    const refusing = await useOwnServer({ RATE_LIMIT_WEBHOOK_TESTS: "2/600" }, { dataDir, port: allowed.port });
    try {
      const test = () => w.manager.pb.send<RecordModel>(`/api/screenroom/webhook-endpoints/${loopback.id}/test`, { method: "POST" });
      const delivery = await test();
      expect(delivery).toMatchObject({ event: "webhook.test", status: "failed", attempts: 1, lastStatus: 0 });
      expect(delivery.lastError).toMatch(/^Refused: the address 127\.0\.0\.1 is not public/);
      expect((await test()).status).toBe("failed");
      const third = await errorOf(test);
      expect({ status: third.status, message: third.response.message }).toEqual({ status: 429, message: "You sent many test events in a short time. Wait a minute, then try again." });
      expect(receiver.connections).toBe(0);
      expect(receiver.received).toEqual([]);
      // the limit is the manager's: another manager's own endpoint is not held up by it
      const theirs = await other.manager.pb.collection("webhook_endpoints").create({ company: other.company.id, url: "https://hooks.invalid/other", events: ["candidate.decided"] });
      expect(await statusOf(() => other.manager.pb.send(`/api/screenroom/webhook-endpoints/${theirs.id}/test`, { method: "POST" }))).toBe(200);
    } finally {
      await refusing.stop();
    }
  });
});
