// The candidate's own choices as an attacker would use them (server/internal/interview/withdrawal.go): the language
// route and the withdrawal, without a key, with another candidate's key, as the company's own manager or another
// company's; candidates.language through the records and batch APIs (a server field: pipeline/server_fields.go); and
// withdrawn_links, which has no API rules at all. Nobody but the key holder changes or erases anything, and a true
// and a false guess at a withdrawn link's hash answer the same.
import { createHash } from "node:crypto";
import { request } from "node:http";
import type PocketBase from "pocketbase";
import { beforeAll, describe, expect, it } from "vitest";
import { anonymous, answerText, asCandidate, asCandidateKey, keyOf, newCandidateOf, pbUrl, statusOf, superuser, uniqueEmail, world } from "../helpers";
import { countOf, expectBatchFieldError, expectFieldError, listOutcome } from "../support";

let a: Awaited<ReturnType<typeof world>>;
let b: Awaited<ReturnType<typeof world>>;
let su: PocketBase;

beforeAll(async () => {
  a = await world("attack-lang-a");
  b = await world("attack-lang-b");
  su = await superuser();
});

const path = (key: string, route: "language" | "withdraw") => `/api/screenroom/interviews/${encodeURIComponent(key)}/${route}`;
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** POST a route with exactly these headers: its status and message. */
async function post(pathKey: string, route: "language" | "withdraw", headers: Record<string, string>, body?: unknown) {
  const res = await fetch(`${pbUrl()}${path(pathKey, route)}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, message: text ? (JSON.parse(text) as { message?: string }).message : undefined };
}

const languageOf = async (candidate: string) => (await su.collection("candidates").getOne(candidate)).language as string;

/** Every way of presenting the wrong thing for candidate's link (its key in the path). */
async function wrongPresenters(candidate: string) {
  const key = (await keyOf(candidate))!;
  const otherKey = (await keyOf(b.candidate.id))!;
  return [
    ["no key at all", key, {}],
    ["another candidate's key in the header", key, { "X-Candidate-Key": otherKey }],
    ["the key in the header, another candidate's in the path", otherKey, { "X-Candidate-Key": key }],
    ["the company's own manager", key, { Authorization: a.manager.pb.authStore.token }],
    ["another company's manager", key, { Authorization: b.manager.pb.authStore.token }],
    ["another company's manager with the key's candidate id", candidate, { Authorization: b.manager.pb.authStore.token, "X-Candidate-Key": candidate }],
    ["the record id in the path and the header", candidate, { "X-Candidate-Key": candidate }],
    ["a key in lower case", key.toLowerCase() === key ? key.toUpperCase() : key.toLowerCase(), { "X-Candidate-Key": key.toLowerCase() === key ? key.toUpperCase() : key.toLowerCase() }],
  ] as const;
}

describe("the language route", () => {
  it("changes nothing for anyone but the key holder", async () => {
    const candidate = await newCandidateOf(a, "attack-lang-route");
    for (const [who, pathKey, headers] of await wrongPresenters(candidate)) {
      expect({ who, ...(await post(pathKey, "language", headers, { language: "de" })) }).toEqual({ who, status: 404, message: "This interview link is not valid." });
    }
    expect(await languageOf(candidate)).toBe("");
  });

  it("refuses a body larger than a choice before reading it", async () => {
    const key = (await keyOf(a.candidate.id))!;
    const body = JSON.stringify({ language: "de", padding: "x".repeat(4096) });
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        `${pbUrl()}${path(key, "language")}`,
        { method: "POST", agent: false, headers: { "X-Candidate-Key": key, "Content-Type": "application/json", "Content-Length": String(Buffer.byteLength(body)) } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on("error", (error) => (String(error).includes("EPIPE") || String(error).includes("ECONNRESET") ? resolve(413) : reject(error)));
      req.end(body);
    });
    expect(status).toBe(413);
    expect(await languageOf(a.candidate.id)).toBe("");
  });
});

describe("candidates.language through the records and batch APIs", () => {
  it("is refused to the company's manager on update, create and in a batch, with a message on the field", async () => {
    const candidate = await newCandidateOf(a, "attack-lang-field");
    const update = await expectFieldError(() => a.manager.pb.collection("candidates").update(candidate, { language: "de" }), "language");
    expect(update).toEqual({ code: "validation_read_only", message: "The candidate chooses their language on their interview screens." });
    await expectFieldError(() => a.manager.pb.collection("candidates").create({ job: a.job.id, email: uniqueEmail("attack-lang-create"), language: "fr" }), "language");
    const batch = a.manager.pb.createBatch();
    batch.collection("candidates").update(candidate, { firstName: "Batched" });
    batch.collection("candidates").update(candidate, { language: "ar" });
    await expectBatchFieldError(() => batch.send(), 1, "language");
    expect(await languageOf(candidate)).toBe("");
    expect((await su.collection("candidates").getOne(candidate)).firstName).toBe("");
  });

  it("is refused to the candidate itself and to everyone else; a superuser's tools may set it", async () => {
    const candidate = await newCandidateOf(a, "attack-lang-self");
    for (const pb of [asCandidate(candidate), b.manager.pb, anonymous()]) {
      expect([400, 403, 404]).toContain(await statusOf(() => pb.collection("candidates").update(candidate, { language: "de" })));
    }
    expect(await languageOf(candidate)).toBe("");
    await su.collection("candidates").update(candidate, { language: "pl" });
    expect(await languageOf(candidate)).toBe("pl");
  });

  it("a manager's edit made from a record read before the candidate chose keeps the candidate's choice", async () => {
    const candidate = await newCandidateOf(a, "attack-lang-kept");
    const stale = await a.manager.pb.collection("candidates").getOne(candidate);
    const key = (await keyOf(candidate))!;
    await asCandidateKey(key).send(path(key, "language"), { method: "POST", body: { language: "es" } });
    await a.manager.pb.collection("candidates").update(candidate, { firstName: "Edited", email: stale.email });
    expect(await su.collection("candidates").getOne(candidate)).toMatchObject({ firstName: "Edited", language: "es" });
  });
});

describe("the withdrawal", () => {
  it("erases nothing for anyone but the key holder, and logs nothing", async () => {
    const candidate = await newCandidateOf(a, "attack-withdraw");
    await answerText(candidate, a.text.question.id);
    for (const [who, pathKey, headers] of await wrongPresenters(candidate)) {
      expect({ who, ...(await post(pathKey, "withdraw", headers)) }).toEqual({ who, status: 404, message: "This interview link is not valid." });
    }
    // a GET never erases: neither the withdraw path nor the interview read
    const key = (await keyOf(candidate))!;
    for (const url of [path(key, "withdraw"), `/api/screenroom/interviews/${key}`]) {
      await fetch(`${pbUrl()}${url}`, { headers: { "X-Candidate-Key": key } });
    }
    expect(await countOf("candidates", "id = {:c}", { c: candidate })).toBe(1);
    expect(await countOf("answers", "candidate = {:c}", { c: candidate })).toBe(1);
    expect(await countOf("audit_log", "candidateId = {:c}", { c: candidate })).toBe(0);
    expect(await countOf("withdrawn_links", "keyHash = {:h}", { h: sha256(key) })).toBe(0);
  });

  it("once done, a second withdrawal and the language of another key find nothing; the withdrawn link's language is its holder's", async () => {
    const candidate = await newCandidateOf(a, "attack-withdraw-twice");
    const key = (await keyOf(candidate))!;
    const otherKey = (await keyOf(b.candidate.id))!;
    expect(await post(key, "withdraw", { "X-Candidate-Key": key })).toMatchObject({ status: 200 });
    expect(await post(key, "withdraw", { "X-Candidate-Key": key })).toEqual({ status: 404, message: "This interview link is not valid." });
    expect(await post(key, "language", { "X-Candidate-Key": otherKey }, { language: "de" })).toMatchObject({ status: 404 });
    expect(await post(key, "language", {}, { language: "de" })).toMatchObject({ status: 404 });
    expect((await su.collection("withdrawn_links").getFirstListItem(su.filter("keyHash = {:h}", { h: sha256(key) }))).language).toBe("en");
    // its holder may still choose the language the withdrawn page is in, among the offered ones only
    expect(await post(key, "language", { "X-Candidate-Key": key }, { language: "xx" })).toMatchObject({ status: 400 });
    expect(await post(key, "language", { "X-Candidate-Key": key }, { language: "it" })).toEqual({ status: 204, message: undefined });
    const read = await asCandidateKey(key).send(`/api/screenroom/interviews/${key}`, {});
    expect(read).toEqual({ withdrawnAt: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}Z$/), language: "it" });
    // the read of a withdrawn link is the key holder's too
    for (const headers of [{}, { "X-Candidate-Key": otherKey }] as Record<string, string>[]) {
      const res = await fetch(`${pbUrl()}/api/screenroom/interviews/${key}`, { headers });
      expect(res.status).toBe(404);
    }
    // the audit log holds one entry
    expect(await countOf("audit_log", "candidateId = {:c} && action = 'withdraw'", { c: candidate })).toBe(1);
  });
});

describe("withdrawn_links", () => {
  let row: { id: string; keyHash: string };
  beforeAll(async () => {
    const candidate = await newCandidateOf(a, "attack-withdrawn-links");
    const key = (await keyOf(candidate))!;
    await asCandidateKey(key).send(path(key, "withdraw"), { method: "POST" });
    row = (await su.collection("withdrawn_links").getFirstListItem(su.filter("keyHash = {:h}", { h: sha256(key) }))) as unknown as typeof row;
  });

  it("has no API access for anyone but superusers: list, view, create, update, delete, batch", async () => {
    for (const pb of [a.manager.pb, b.manager.pb, asCandidate(a.candidate.id), anonymous()]) {
      expect(await statusOf(() => pb.collection("withdrawn_links").getList(1, 10))).toBe(403);
      expect([403, 404]).toContain(await statusOf(() => pb.collection("withdrawn_links").getOne(row.id)));
      expect([400, 403]).toContain(await statusOf(() => pb.collection("withdrawn_links").create({ keyHash: "f".repeat(64), language: "de" })));
      expect([403, 404]).toContain(await statusOf(() => pb.collection("withdrawn_links").update(row.id, { language: "de" })));
      expect([403, 404]).toContain(await statusOf(() => pb.collection("withdrawn_links").delete(row.id)));
    }
    const batch = a.manager.pb.createBatch();
    batch.collection("withdrawn_links").create({ keyHash: "e".repeat(64), language: "de" });
    batch.collection("withdrawn_links").delete(row.id);
    expect(await statusOf(() => batch.send())).toBeGreaterThanOrEqual(400);
    expect(await su.collection("withdrawn_links").getOne(row.id)).toMatchObject({ keyHash: row.keyHash, language: "en" });
    expect(await countOf("withdrawn_links", "keyHash = {:a} || keyHash = {:b}", { a: "f".repeat(64), b: "e".repeat(64) })).toBe(0);
  });

  it("gives a manager, a candidate and a visitor the same answer to a true and a false guess at a hash", async () => {
    const truth = row.keyHash;
    const lie = truth.slice(0, -1) + (truth.endsWith("a") ? "b" : "a");
    const probes: [string, (g: string) => Record<string, string>][] = [
      ["candidates", (g) => ({ filter: `@collection.withdrawn_links.keyHash ?= '${g}'` })],
      ["candidates", (g) => ({ filter: `@collection.withdrawn_links.keyHash ?>= '${g}'` })],
      ["jobs", (g) => ({ filter: `@collection.withdrawn_links.keyHash ?= '${g}'` })],
      ["companies", (g) => ({ filter: `@collection.withdrawn_links.keyHash ?!= '${g}'` })],
      ["withdrawn_links", (g) => ({ filter: `keyHash = '${g}'` })],
    ];
    for (const pb of [a.manager.pb, asCandidate(a.candidate.id), anonymous()]) {
      for (const [collection, query] of probes) {
        const right = await listOutcome(pb, collection, query(truth));
        const wrong = await listOutcome(pb, collection, query(lie));
        expect({ collection, query: query("g"), right }).toEqual({ collection, query: query("g"), right: wrong });
      }
    }
  });
});
