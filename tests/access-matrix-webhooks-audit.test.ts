// Who reaches the routes of a company's webhook endpoints and audit log (server/internal/webhooks/endpoint_routes.go,
// server/internal/lifecycle/audit_log_filter.go): every actor against A's company. Allowed: its owner and a
// co-manager who is not the owner (none of these routes is the owner's alone; the disabled-endpoint e-mail is, and
// tests/webhooks-manage.test.ts checks it). Refused, with the 404 of an unknown id and nothing done: another
// company's manager, a manager removed from A, a manager of A whose address is no longer confirmed, a signed-in user
// of no company, A's candidate by their key, and anonymous. The endpoint's URL is under .invalid, which never
// resolves: a test event here fails without sending anything anywhere.
import type PocketBase from "pocketbase";
import type { RecordModel } from "pocketbase";
import { beforeAll, describe, expect, it } from "vitest";
import { anonymous, asCandidateKey, keyOf, pbUrl, signUp, superuser, uniqueEmail, world } from "./helpers";
import { acceptInvite } from "./support";

type Actor = "owner" | "coManager" | "otherManager" | "removedManager" | "unverifiedManager" | "noCompany" | "candidate" | "anonymous";
const ACTORS: Actor[] = ["owner", "coManager", "otherManager", "removedManager", "unverifiedManager", "noCompany", "candidate", "anonymous"];
const ALLOWED: Actor[] = ["owner", "coManager"];

let a: Awaited<ReturnType<typeof world>>;
let b: Awaited<ReturnType<typeof world>>;
let su: PocketBase;
const clients = {} as Record<Actor, PocketBase>;
let endpoint: RecordModel;

async function joinA(label: string) {
  const fellow = await signUp({ email: uniqueEmail(label) });
  const invitation = await a.manager.pb.collection("manager_invites").create({ company: a.company.id, email: fellow.user.email });
  expect((await acceptInvite(invitation.id, fellow.pb.authStore.token)).status).toBe(200);
  return fellow;
}

beforeAll(async () => {
  a = await world("matrix-hooks-a");
  b = await world("matrix-hooks-b");
  su = await superuser();
  const coManager = await joinA("matrix-hooks-co");
  const removed = await joinA("matrix-hooks-removed");
  await a.manager.pb.collection("companies").update(a.company.id, { "managers-": removed.user.id });
  const unverified = await joinA("matrix-hooks-unverified");
  await su.collection("users").update(unverified.user.id, { verified: false });
  const noCompany = await signUp({ email: uniqueEmail("matrix-hooks-none") });
  Object.assign(clients, {
    owner: a.manager.pb,
    coManager: coManager.pb,
    otherManager: b.manager.pb,
    removedManager: removed.pb,
    unverifiedManager: unverified.pb,
    noCompany: noCompany.pb,
    candidate: asCandidateKey((await keyOf(a.candidate.id))!),
    anonymous: anonymous(),
  });
  endpoint = await a.manager.pb.collection("webhook_endpoints").create({ company: a.company.id, url: "https://hooks.invalid/matrix", events: ["candidate.decided"] });
  // an entry in A's log, so a read that leaks has something to leak
  const res = await fetch(`${pbUrl()}/api/screenroom/candidates/${a.candidate.id}/export`, { headers: { Authorization: a.manager.pb.authStore.token } });
  await res.arrayBuffer();
  expect(res.status).toBe(200);
});

/** The status of a request, and its body's text (so a refusal can be compared with an unknown id's). */
async function call(pb: PocketBase, method: "GET" | "POST", path: string) {
  let status = 0;
  let body = "";
  // through the client, so each actor's own headers go along (a token, a candidate's key)
  await pb.send(path, {
    method,
    fetch: async (url: RequestInfo | URL, init?: RequestInit) => {
      const res = await fetch(url, init);
      status = res.status;
      body = await res.clone().text();
      return res;
    },
  }).catch(() => undefined);
  return { status, body };
}

describe("POST /api/screenroom/webhook-endpoints/{id}/test", () => {
  it.each(ACTORS)("as %s", async (actor) => {
    const before = await su.collection("webhook_deliveries").getFullList({ filter: su.filter("endpoint = {:e}", { e: endpoint.id }) });
    const { status, body } = await call(clients[actor], "POST", `/api/screenroom/webhook-endpoints/${endpoint.id}/test`);
    const after = await su.collection("webhook_deliveries").getFullList({ filter: su.filter("endpoint = {:e}", { e: endpoint.id }) });
    if (ALLOWED.includes(actor)) {
      expect(status).toBe(200);
      expect(JSON.parse(body)).toMatchObject({ event: "webhook.test", status: "failed", attempts: 1 });
      expect(after).toHaveLength(before.length + 1);
    } else {
      const unknown = await call(clients[actor], "POST", "/api/screenroom/webhook-endpoints/nosuchendpoint1/test");
      expect({ status, body }).toEqual({ status: 404, body: unknown.body });
      expect(after).toHaveLength(before.length);
    }
  });
});

describe("POST /api/screenroom/webhook-endpoints/{id}/rotate-secret", () => {
  it.each(ACTORS)("as %s", async (actor) => {
    const before = (await su.collection("webhook_endpoints").getOne(endpoint.id)).secret as string;
    const { status, body } = await call(clients[actor], "POST", `/api/screenroom/webhook-endpoints/${endpoint.id}/rotate-secret`);
    const after = (await su.collection("webhook_endpoints").getOne(endpoint.id)).secret as string;
    if (ALLOWED.includes(actor)) {
      expect(status).toBe(200);
      expect(JSON.parse(body).secret).toBe(after);
      expect(after).not.toBe(before);
    } else {
      const unknown = await call(clients[actor], "POST", "/api/screenroom/webhook-endpoints/nosuchendpoint1/rotate-secret");
      expect({ status, body }).toEqual({ status: 404, body: unknown.body });
      expect(after).toBe(before);
      expect(body).not.toContain("whsec_");
    }
  });
});

describe.each([
  ["GET /api/screenroom/companies/{id}/audit-log", "audit-log"],
  ["GET /api/screenroom/companies/{id}/audit-log.csv", "audit-log.csv"],
])("%s", (_name, route) => {
  it.each(ACTORS)("as %s", async (actor) => {
    const { status, body } = await call(clients[actor], "GET", `/api/screenroom/companies/${a.company.id}/${route}`);
    if (ALLOWED.includes(actor)) {
      expect(status).toBe(200);
      expect(body).toContain(a.candidate.id);
    } else {
      const unknown = await call(clients[actor], "GET", `/api/screenroom/companies/nosuchcompany1/${route}`);
      expect({ status, body }).toEqual({ status: 404, body: unknown.body });
      expect(body).not.toContain(a.candidate.id);
    }
  });
});
