// The pipeline's bulk routes (server/internal/bulk) as an attacker: another company's manager, ids of another
// company's candidates mixed into a selection, a filter that names another job, a removed manager, an account whose
// address is no longer confirmed, a candidate's key, nobody, more than 1,000 candidates, and a manager whose hourly
// allowance or action budget is spent. Nothing of anyone else's is touched, and nothing tells a stranger's candidate
// from an id that exists nowhere.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type PocketBase from "pocketbase";
import { anonymous, asCandidate, createCompany, createJob, createQuestion, errorOf, randomId, signUp, statusOf, superuser, uniqueEmail, useOwnServer, world } from "../helpers";
import { coManagerOf } from "../support";
import { bulkAction, bulkExport, toldOf, type BulkAction } from "../bulk-support";

type World = Awaited<ReturnType<typeof world>>;
const ACTIONS: BulkAction[] = ["decide", "resend-invite", "message", "erase"];
const bodyFor = (action: BulkAction, selection: Record<string, unknown>): Record<string, unknown> =>
  action === "decide" ? { ...selection, decision: "reject" } : action === "message" ? { ...selection, kind: "advance" } : selection;

/** What an attack may change of a candidate: whether it exists, its decision, the e-mails queued to it, its audit
 * entries and the decision messages sent to it. */
async function stateOf(candidateId: string, email: string) {
  const su = await superuser();
  const row = await su
    .collection("candidates")
    .getOne(candidateId)
    .catch(() => null);
  const mails = (await su.collection("mail_queue").getList(1, 1, { filter: su.filter("to = {:to}", { to: email }) })).totalItems;
  const audit = (await su.collection("audit_log").getList(1, 1, { filter: su.filter("candidateId = {:c}", { c: candidateId }) })).totalItems;
  const messages = (await su.collection("decision_messages").getList(1, 1, { filter: su.filter("candidate = {:c}", { c: candidateId }) })).totalItems;
  return { exists: row !== null, decision: row?.decision ?? null, mails, audit, messages };
}

describe("bulk routes across companies", () => {
  let a: World;
  let b: World;
  beforeAll(async () => {
    a = await world("bulk-atk-a");
    b = await world("bulk-atk-b");
  });

  it.each(ACTIONS)("%s: another company's manager gets 404 for A's job, by ids and by filter, and nothing changes", async (action) => {
    const before = await stateOf(a.candidate.id, a.candidate.email);
    for (const selection of [{ candidates: [a.candidate.id] }, { filter: {} }]) {
      expect(await statusOf(() => bulkAction(b.manager.pb, a.job.id, action, bodyFor(action, selection)))).toBe(404);
    }
    expect(await statusOf(() => bulkExport(b.manager.pb, a.job.id, { candidates: [a.candidate.id] }))).toBe(404);
    expect(await stateOf(a.candidate.id, a.candidate.email)).toEqual(before);
  });

  it.each(ACTIONS)("%s: B's candidate ids mixed into A's selection are told of as an id that exists nowhere, and left alone", async (action) => {
    const mine = await a.manager.pb.collection("candidates").create({ job: a.job.id, email: uniqueEmail("bulk-atk-mine") });
    const theirs = await b.manager.pb.collection("candidates").create({ job: b.job.id, email: uniqueEmail("bulk-atk-theirs") });
    // decided, so a message would go to either
    for (const id of [mine.id, theirs.id]) await (await superuser()).collection("candidates").update(id, { decision: "advance" });
    const before = await stateOf(theirs.id, theirs.email as string);
    const nowhere = randomId();
    const answer = await bulkAction(a.manager.pb, a.job.id, action, bodyFor(action, { candidates: [theirs.id, mine.id, nowhere] }));
    const rowOf = (id: string) => answer.rows.find((r) => r.id === id);
    expect(rowOf(mine.id)?.status).toBe("done");
    expect(toldOf(rowOf(theirs.id))).toEqual(toldOf(rowOf(nowhere)));
    expect(rowOf(theirs.id)).toMatchObject({ status: "skipped", code: "not_found", email: "" });
    expect(await stateOf(theirs.id, theirs.email as string)).toEqual(before);
  });

  it("export: B's candidates mixed in are not in A's zip, nor logged", async () => {
    const theirs = await b.manager.pb.collection("candidates").create({ job: b.job.id, email: uniqueEmail("bulk-atk-zip") });
    const { zip, exported, notFound } = await bulkExport(a.manager.pb, a.job.id, { candidates: [a.candidate.id, theirs.id] });
    expect({ exported, notFound }).toEqual({ exported: 1, notFound: 1 });
    const everything = [...zip.entries()].map(([name, data]) => name + data.toString("latin1")).join("\n");
    expect(everything).not.toContain(theirs.id);
    expect(everything).not.toContain(theirs.email);
    expect((await stateOf(theirs.id, theirs.email as string)).audit).toBe(0);
    // only B's: refused as finding nobody, the same as an unknown id
    const onlyTheirs = await errorOf(() => bulkExport(a.manager.pb, a.job.id, { candidates: [theirs.id] }));
    const onlyNowhere = await errorOf(() => bulkExport(a.manager.pb, a.job.id, { candidates: [randomId()] }));
    expect([onlyTheirs.status, onlyTheirs.response]).toEqual([onlyNowhere.status, onlyNowhere.response]);
  });

  it("a filter that names another job, or anything but status, decision and search, is refused whole", async () => {
    const before = await stateOf(b.candidate.id, b.candidate.email);
    const mineBefore = await stateOf(a.candidate.id, a.candidate.email);
    for (const filter of [{ job: b.job.id }, { status: "", job: b.job.id }, { company: b.company.id }, { "job.company": b.company.id }]) {
      const err = await errorOf(() => bulkAction(a.manager.pb, a.job.id, "decide", { filter, decision: "reject" }));
      expect({ filter, status: err.status, code: err.response.data.filter?.code }).toEqual({ filter, status: 400, code: "validation_unknown_field" });
    }
    // a search is bound, never read as a filter expression
    for (const q of [`" || job != "`, `%' OR 1=1 --`, `') OR job = '${b.job.id}`]) {
      const err = await errorOf(() => bulkAction(a.manager.pb, a.job.id, "decide", { filter: { q }, decision: "reject" }));
      expect(err.response.data.filter?.code).toBe("validation_no_match");
    }
    // ids that look like expressions are ids, found nowhere
    const answer = await bulkAction(a.manager.pb, a.job.id, "decide", { candidates: [`" || id != "`, "*", b.candidate.id], decision: "reject" });
    expect(answer.rows.map((r) => r.code)).toEqual(["not_found", "not_found", "not_found"]);
    expect(await stateOf(b.candidate.id, b.candidate.email)).toEqual(before);
    expect(await stateOf(a.candidate.id, a.candidate.email)).toEqual(mineBefore);
  });
});

describe("bulk routes and who asks", () => {
  it("a removed manager, with the session they still hold, acts on nothing", async () => {
    const w = await world("bulk-atk-removed");
    const co = await coManagerOf(w, "bulk-atk-removed-co");
    expect((await bulkAction(co.pb, w.job.id, "decide", { candidates: [w.candidate.id], decision: "hold" })).end.done).toBe(1);
    await w.manager.pb.collection("companies").update(w.company.id, { "managers-": co.user.id });
    const before = await stateOf(w.candidate.id, w.candidate.email);
    for (const action of ACTIONS) {
      expect(await statusOf(() => bulkAction(co.pb, w.job.id, action, bodyFor(action, { filter: {} })))).toBe(404);
    }
    expect(await statusOf(() => bulkExport(co.pb, w.job.id, { filter: {} }))).toBe(404);
    expect(await stateOf(w.candidate.id, w.candidate.email)).toEqual(before);
  });

  it("a manager whose address is no longer confirmed acts on nothing, though still in the company", async () => {
    const w = await world("bulk-atk-unverified");
    const co = await coManagerOf(w, "bulk-atk-unverified-co");
    await (await superuser()).collection("users").update(co.user.id, { verified: false });
    const before = await stateOf(w.candidate.id, w.candidate.email);
    for (const action of ACTIONS) {
      expect(await statusOf(() => bulkAction(co.pb, w.job.id, action, bodyFor(action, { candidates: [w.candidate.id] })))).toBe(404);
    }
    expect(await statusOf(() => bulkExport(co.pb, w.job.id, { candidates: [w.candidate.id] }))).toBe(404);
    expect(await stateOf(w.candidate.id, w.candidate.email)).toEqual(before);
  });

  it("a candidate's key and nobody get 401, an unknown job 404", async () => {
    const w = await world("bulk-atk-anon");
    const before = await stateOf(w.candidate.id, w.candidate.email);
    for (const pb of [asCandidate(w.candidate.id), anonymous()] as PocketBase[]) {
      for (const action of ACTIONS) {
        expect(await statusOf(() => bulkAction(pb, w.job.id, action, bodyFor(action, { candidates: [w.candidate.id] })))).toBe(401);
      }
      expect(await statusOf(() => bulkExport(pb, w.job.id, { candidates: [w.candidate.id] }))).toBe(401);
    }
    expect(await statusOf(() => bulkAction(w.manager.pb, randomId(), "decide", { candidates: [w.candidate.id], decision: "hold" }))).toBe(404);
    expect(await stateOf(w.candidate.id, w.candidate.email)).toEqual(before);
  });

  it("more than 1,000 ids is refused before any candidate, and an oversized body before it is read", async () => {
    const w = await world("bulk-atk-many");
    const ids = [w.candidate.id, ...Array.from({ length: 1000 }, () => randomId())];
    for (const action of ACTIONS) {
      const err = await errorOf(() => bulkAction(w.manager.pb, w.job.id, action, bodyFor(action, { candidates: ids })));
      expect([err.status, err.response.data.candidates?.code]).toEqual([400, "validation_bulk_too_many"]);
    }
    expect(await statusOf(() => bulkExport(w.manager.pb, w.job.id, { candidates: ids }))).toBe(400);
    const huge = JSON.stringify({ candidates: [w.candidate.id], decision: "hold", padding: "x".repeat(200 * 1024) });
    expect(await statusOf(() => bulkAction(w.manager.pb, w.job.id, "decide", huge))).toBe(413);
    expect(await stateOf(w.candidate.id, w.candidate.email)).toMatchObject({ exists: true, decision: "", audit: 0 });
  });
});

// The limits, on a server of this suite's own: a cap of 5 candidates an hour, 4 bulk actions, 4 resends (resends
// share RATE_LIMIT_INVITES) and 2 decision message actions in their windows a manager.
describe("bulk routes and the manager's limits", () => {
  let server: Awaited<ReturnType<typeof useOwnServer>>;
  beforeAll(async () => {
    server = await useOwnServer({ BULK_CANDIDATES_PER_HOUR: "5", RATE_LIMIT_BULK_ACTIONS: "4/600", RATE_LIMIT_INVITES: "4/600", RATE_LIMIT_MESSAGES: "2/600" });
  });
  afterAll(async () => {
    await server?.stop();
  });

  /** A manager with a job of `count` candidates (made by a superuser: neither the cap nor the invite limits count them). */
  async function managerWith(label: string, count: number) {
    const manager = await signUp({ email: uniqueEmail(`${label}-manager`) });
    const company = await createCompany(manager.pb, `${label} company`);
    const { question } = await createQuestion(manager.pb, company.id, "text");
    const job = await createJob(manager.pb, company.id, [question.id]);
    const su = await superuser();
    const ids: string[] = [];
    for (let i = 0; i < count; i++) ids.push((await su.collection("candidates").create({ job: job.id, email: uniqueEmail(label) })).id);
    return { manager, company, job, ids };
  }

  it("counts the candidates affected against the hourly allowance, across actions and jobs, and refuses a request that finds none left", async () => {
    const m = await managerWith("bulk-cap", 7);
    const first = await bulkAction(m.manager.pb, m.job.id, "decide", { candidates: m.ids.slice(0, 3), decision: "hold" });
    expect(first.end).toMatchObject({ done: 3, hourlyCap: { limit: 5, remaining: 2 } });
    // the decision they already have affects nobody: nothing counted
    const same = await bulkAction(m.manager.pb, m.job.id, "decide", { candidates: m.ids.slice(0, 3), decision: "hold" });
    expect(same.end).toMatchObject({ done: 0, skipped: 3, hourlyCap: { remaining: 2 } });
    // four asked, two left: the first two are decided, the rest left as they were and told why
    const past = await bulkAction(m.manager.pb, m.job.id, "decide", { candidates: m.ids.slice(3, 7), decision: "reject" });
    expect(past.rows.map((r) => [r.status, r.code ?? ""])).toEqual([
      ["done", ""],
      ["done", ""],
      ["skipped", "bulk_hourly_cap"],
      ["skipped", "bulk_hourly_cap"],
    ]);
    expect(past.rows[2]!.message).toMatch(/^You can act on 0 more candidates now: at most 5 an hour by bulk actions\. More from \d\d:\d\d UTC\.$/);
    const su = await superuser();
    expect((await su.collection("candidates").getOne(m.ids[6]!)).decision).toBe("");

    // nothing left: refused whole, on every action, and the export too
    for (const action of ACTIONS) {
      const err = await errorOf(() => bulkAction(m.manager.pb, m.job.id, action, bodyFor(action, { candidates: [m.ids[6]!] })));
      expect(err.status).toBe(429);
      expect(err.response.data.candidates).toMatchObject({ code: "bulk_hourly_cap", params: { limit: 5, remaining: 0 } });
    }
    expect(await statusOf(() => bulkExport(m.manager.pb, m.job.id, { candidates: [m.ids[6]!] }))).toBe(429);
    // the CSV import shares the allowance
    const csv = await errorOf(() =>
      m.manager.pb.send(`/api/screenroom/jobs/${m.job.id}/invites/bulk`, { method: "POST", body: { importId: `cap-${randomId()}`, rows: [{ email: uniqueEmail("cap-csv") }] } }),
    );
    expect(csv.status).toBe(429);
    expect((await su.collection("candidates").getOne(m.ids[6]!)).decision).toBe("");

    // another manager is not held back; an hour later (the server's test clock) this one acts again
    const other = await managerWith("bulk-cap-other", 1);
    expect((await bulkAction(other.manager.pb, other.job.id, "erase", { candidates: other.ids })).end.done).toBe(1);
    await su.send("/api/screenroom/test-clock", { method: "POST", body: { offsetMs: 62 * 60_000 } });
    expect((await bulkAction(m.manager.pb, m.job.id, "decide", { candidates: [m.ids[6]!], decision: "advance" })).end.done).toBe(1);
    await su.send("/api/screenroom/test-clock", { method: "POST", body: { offsetMs: 0 } });
  });

  it("an export is all or nothing against the allowance", async () => {
    const m = await managerWith("bulk-cap-zip", 6);
    const err = await errorOf(() => bulkExport(m.manager.pb, m.job.id, { candidates: m.ids }));
    expect(err.status).toBe(429);
    expect(err.response.data.candidates).toMatchObject({ code: "bulk_hourly_cap", params: { limit: 5, remaining: 5 } });
    const su = await superuser();
    expect((await su.collection("audit_log").getList(1, 1, { filter: su.filter("company = {:c}", { c: m.company.id }) })).totalItems).toBe(0);
    const { exported } = await bulkExport(m.manager.pb, m.job.id, { candidates: m.ids.slice(0, 5) });
    expect(exported).toBe(5);
  });

  it("one request is one action of the manager's rate limit, however many candidates it names", async () => {
    const m = await managerWith("bulk-actions", 2);
    for (const decision of ["advance", "hold", "reject", "advance"]) {
      expect((await bulkAction(m.manager.pb, m.job.id, "decide", { candidates: m.ids.slice(0, 1), decision })).end.done).toBe(1);
    }
    const refused = await errorOf(() => bulkAction(m.manager.pb, m.job.id, "erase", { candidates: m.ids.slice(1, 2) }));
    expect([refused.status, refused.response.message]).toEqual([429, "You started many bulk actions in a short time. Wait a few minutes, then try again."]);
    const zip = await errorOf(() => bulkExport(m.manager.pb, m.job.id, { candidates: m.ids.slice(1, 2) }));
    expect([zip.status, zip.response.message]).toEqual([429, refused.response.message]);
    const su = await superuser();
    expect((await su.collection("candidates").getOne(m.ids[1]!)).id).toBe(m.ids[1]);
    // the refused requests gave their candidates back: one of the five is left, and the CSV import may take it
    const csv = await m.manager.pb.send<{ created: number }>(`/api/screenroom/jobs/${m.job.id}/invites/bulk`, {
      method: "POST",
      body: { importId: `left-${randomId()}`, rows: [{ email: uniqueEmail("left-csv") }] },
    });
    expect(csv.created).toBe(1);
  });

  it("a bulk resend is one resend of the single route's budget", async () => {
    const m = await managerWith("bulk-resends", 3);
    expect((await bulkAction(m.manager.pb, m.job.id, "resend-invite", { candidates: m.ids.slice(0, 2) })).end.done).toBe(2);
    // RATE_LIMIT_INVITES is 4: three single resends more, then none, bulk or single
    const resend = (id: string) => m.manager.pb.send(`/api/screenroom/candidates/${id}/resend-invite`, { method: "POST" });
    for (let i = 0; i < 3; i++) expect(await statusOf(() => resend(m.ids[2]!))).toBe(200);
    expect(await statusOf(() => resend(m.ids[2]!))).toBe(429);
    const refused = await errorOf(() => bulkAction(m.manager.pb, m.job.id, "resend-invite", { candidates: m.ids.slice(0, 1) }));
    expect([refused.status, refused.response.message]).toEqual([429, "You sent many invitations again in a short time. Wait a few minutes, then try again."]);
  });

  it("a bulk decision message is one message action of the single route's budget", async () => {
    const m = await managerWith("bulk-messages", 3);
    const su = await superuser();
    for (const id of m.ids) await su.collection("candidates").update(id, { decision: "advance" });
    expect((await bulkAction(m.manager.pb, m.job.id, "message", { candidates: m.ids.slice(0, 2), kind: "advance" })).end.done).toBe(2);
    // RATE_LIMIT_MESSAGES is 2: one single message more, then none, bulk or single
    const send = (id: string) => m.manager.pb.send(`/api/screenroom/candidates/${id}/decision-message`, { method: "POST", body: { kind: "advance" } });
    expect(await statusOf(() => send(m.ids[2]!))).toBe(200);
    const refused = await errorOf(() => bulkAction(m.manager.pb, m.job.id, "message", { candidates: m.ids.slice(0, 1), kind: "advance" }));
    expect([refused.status, refused.response.message]).toEqual([429, "You sent many decision messages in a short time. Wait a few minutes, then try again."]);
  });
});
