// Issue 19 point 6, as an attacker: the audit log (pb_migrations/1733200100_audit_log.js, internal/lifecycle/audit_log.go)
// and the export and erase routes (internal/lifecycle: export.go, erasure.go). Another company's manager and a
// candidate learn nothing of a company's log by any filter (back-relations `_via_` included), sort, expand or
// realtime event; nobody writes, changes or removes an entry through the records API or a batch, a superuser
// included; the routes do nothing for anyone but the company's managers.
import type PocketBase from "pocketbase";
import type { RecordModel } from "pocketbase";
import { beforeAll, describe, expect, it } from "vitest";
import { anonymous, answerText, asCandidate, consent, pbUrl, statusOf, superuser, world } from "../helpers";
import { listOutcome } from "../support";
import { firstEvent } from "./realtime";

let a: Awaited<ReturnType<typeof world>>;
let b: Awaited<ReturnType<typeof world>>;
let su: PocketBase;
let entry: RecordModel;

async function exportAs(pb: PocketBase, candidate: string) {
  const headers: Record<string, string> = pb.authStore.token ? { Authorization: pb.authStore.token } : {};
  const res = await fetch(`${pbUrl()}/api/screenroom/candidates/${encodeURIComponent(candidate)}/export`, { headers });
  await res.arrayBuffer();
  return res.status;
}

beforeAll(async () => {
  a = await world("audit-victim");
  b = await world("audit-attacker");
  su = await superuser();
  expect(await exportAs(a.manager.pb, a.candidate.id)).toBe(200);
  entry = await su.collection("audit_log").getFirstListItem(su.filter("candidateId = {:c}", { c: a.candidate.id }));
});

describe("the filter oracle on a company's log", () => {
  it("gives another company's manager and a candidate identical answers to a true and a false guess", async () => {
    const truth = a.candidate.id;
    const lie = truth.slice(0, -1) + (truth.endsWith("a") ? "b" : "a");
    const probes: [string, string, (g: string) => Record<string, string>][] = [
      ["audit_log", "=", (g) => ({ filter: `candidateId = '${g}'` })],
      ["audit_log", ">=", (g) => ({ filter: `candidateId >= '${g}'` })],
      ["audit_log", "!=", (g) => ({ filter: `candidateId != '${g}' && company = '${a.company.id}'` })],
      ["audit_log", "sort", (g) => ({ filter: `candidateId >= '${g}'`, sort: "candidateId" })],
      ["companies", "_via_ =", (g) => ({ filter: `audit_log_via_company.candidateId ?= '${g}'` })],
      ["companies", "_via_ >=", (g) => ({ filter: `audit_log_via_company.candidateId ?>= '${g}'` })],
      ["companies", "_via_ !=", (g) => ({ filter: `audit_log_via_company.candidateId ?!= '${g}'` })],
      ["users", "_via_ actor", (g) => ({ filter: `audit_log_via_actor.candidateId ?= '${g}'` })],
      ["candidates", "@collection", (g) => ({ filter: `@collection.audit_log.candidateId ?= '${g}'` })],
      ["jobs", "expand", (g) => ({ filter: `company.audit_log_via_company.candidateId ?= '${g}'`, expand: "company.audit_log_via_company" })],
    ];
    for (const pb of [b.manager.pb, asCandidate(a.candidate.id), anonymous()]) {
      for (const [collection, what, query] of probes) {
        const right = await listOutcome(pb, collection, query(truth));
        const wrong = await listOutcome(pb, collection, query(lie));
        expect({ collection, what, right }).toEqual({ collection, what, right: wrong });
      }
    }
  });
});

describe("reads", () => {
  it("another company's manager, a candidate and a visitor see no entry, listed, viewed or expanded", async () => {
    for (const pb of [b.manager.pb, asCandidate(a.candidate.id), anonymous()]) {
      expect(await pb.collection("audit_log").getFullList({ filter: pb.filter("company = {:c}", { c: a.company.id }) })).toEqual([]);
      expect(await statusOf(() => pb.collection("audit_log").getOne(entry.id))).toBe(404);
    }
    // nor expanded from a record they may read: another company's manager from their own company, the candidate
    // from their own candidate record (the candidate no longer views its company through the records API: issue 20's
    // 1733200200_manager_only_views.js)
    const theirs = await b.manager.pb.collection("companies").getOne(b.company.id, { expand: "audit_log_via_company" });
    expect(JSON.stringify(theirs)).not.toContain(entry.id);
    const self = await asCandidate(a.candidate.id).collection("candidates").getOne(a.candidate.id, { expand: "job.company.audit_log_via_company" });
    expect(JSON.stringify(self)).not.toContain(entry.id);
    expect(await statusOf(() => asCandidate(a.candidate.id).collection("companies").getOne(a.company.id, { expand: "audit_log_via_company" }))).toBe(404);
    // the company's own manager reads it, expanded from the company too
    const own = await a.manager.pb.collection("companies").getOne(a.company.id, { expand: "audit_log_via_company" });
    expect(JSON.stringify(own.expand)).toContain(entry.id);
  });

  it("a realtime subscriber of another company receives none of its entries", async () => {
    const other = await b.manager.pb.collection("candidates").create({ job: b.job.id, email: `rt-${Date.now()}@screenroom.test` });
    const data = await firstEvent(b.manager.pb.authStore.token, "audit_log/*", async () => {
      expect(await exportAs(a.manager.pb, a.candidate.id)).toBe(200);
      // b's own export, which b may see: the first event b receives must be this one
      expect(await exportAs(b.manager.pb, other.id)).toBe(200);
    });
    expect(data).toContain(other.id);
    expect(data).not.toContain(a.candidate.id);
  });
});

describe("writes", () => {
  it("nobody creates, changes or removes an entry through the records API or a batch, a superuser included", async () => {
    const forged = { company: a.company.id, action: "erase", candidateId: "forgedcandidat" };
    for (const pb of [a.manager.pb, b.manager.pb, asCandidate(a.candidate.id), anonymous()]) {
      expect([400, 403, 404]).toContain(await statusOf(() => pb.collection("audit_log").create(forged)));
      expect([403, 404]).toContain(await statusOf(() => pb.collection("audit_log").update(entry.id, { action: "erase" })));
      expect([403, 404]).toContain(await statusOf(() => pb.collection("audit_log").delete(entry.id)));
    }
    const batch = a.manager.pb.createBatch();
    batch.collection("audit_log").create(forged);
    batch.collection("audit_log").update(entry.id, { candidateId: "x" });
    batch.collection("audit_log").delete(entry.id);
    expect(await statusOf(() => batch.send())).toBeGreaterThanOrEqual(400);
    const suBatch = su.createBatch();
    suBatch.collection("audit_log").update(entry.id, { candidateId: "x" });
    suBatch.collection("audit_log").delete(entry.id);
    expect(await statusOf(() => suBatch.send())).toBeGreaterThanOrEqual(400);
    expect(await su.collection("audit_log").getOne(entry.id)).toMatchObject({ action: "export", candidateId: a.candidate.id, actor: a.manager.user.id });
    expect(await su.collection("audit_log").getFullList({ filter: su.filter("candidateId = 'forgedcandidat'") })).toEqual([]);
  });
});

describe("the routes", () => {
  it("export and erase nothing for another company's manager or a candidate, even by the candidate's key in the path", async () => {
    const { answer } = await answerText(a.candidate.id, a.text.question.id);
    const key = (await su.collection("candidates").getOne(a.candidate.id)).secret as string;
    for (const pb of [b.manager.pb, asCandidate(a.candidate.id)]) {
      for (const id of [a.candidate.id, key]) {
        expect(await exportAs(pb, id)).toBe(404);
        expect(await statusOf(() => pb.send(`/api/screenroom/candidates/${id}/erase`, { method: "POST" }))).toBe(404);
      }
    }
    // the company's manager with the key instead of the id: the key is no record id
    expect(await exportAs(a.manager.pb, key)).toBe(404);
    expect((await su.collection("answers").getOne(answer.id)).id).toBe(answer.id);
    // a GET does not erase, a POST does not export
    expect(await statusOf(() => a.manager.pb.send(`/api/screenroom/candidates/${a.candidate.id}/erase`, { method: "GET" }))).toBe(404);
    expect((await su.collection("candidates").getOne(a.candidate.id)).id).toBe(a.candidate.id);
  });
});

// Issue 46 finding 2: the product's own delete left no audit entry. Every removal of a candidate (the records API's
// delete as the review's 'Delete candidate and answers' sends it, a batch, a job deleted with its candidates, the
// erase route) writes exactly one entry per candidate, in the removal's transaction, holding nothing personal
// (server/internal/lifecycle/candidate_removal_audit.go).
describe("every removal of a candidate is in the log", () => {
  const confirmed = { query: { deleteAnswers: "true" } };
  /** The company's entries for `candidate`, as the server stored them. */
  const entriesOf = (company: string, candidate: string) =>
    su.collection("audit_log").getFullList({ filter: su.filter("company = {:company} && candidateId = {:candidate}", { company, candidate }) });
  /** A candidate of w's job with a name and an answer (their data), and its e-mail. */
  async function namedCandidate(w: Awaited<ReturnType<typeof world>>, label: string, answered = true) {
    const email = `${label}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@screenroom.test`;
    const candidate = await w.manager.pb.collection("candidates").create({ job: w.job.id, email, firstName: "Ada", lastName: "Lovelace" });
    await consent(candidate.id);
    if (answered) await answerText(candidate.id, w.text.question.id);
    return { id: candidate.id, email };
  }
  /** The entry holds action, who acted, company, candidate id and time only: no e-mail, no name. */
  function expectNothingPersonal(entry: RecordModel, email: string) {
    expect(Object.keys(entry).sort()).toEqual(["action", "actor", "actorKind", "candidateId", "collectionId", "collectionName", "company", "created", "id"]);
    const text = JSON.stringify(entry);
    for (const personal of [email, "Ada", "Lovelace"]) expect(text).not.toContain(personal);
  }

  it("the records API's delete with ?deleteAnswers=true: one entry by that manager, and a candidate without answers too", async () => {
    const w = await world("audit-delete");
    const answered = await namedCandidate(w, "audit-delete-answered");
    await w.manager.pb.collection("candidates").delete(answered.id, confirmed);
    expect(await statusOf(() => su.collection("candidates").getOne(answered.id))).toBe(404);
    const entries = await entriesOf(w.company.id, answered.id);
    expect(entries).toEqual([expect.objectContaining({ action: "delete", actorKind: "manager", actor: w.manager.user.id, company: w.company.id, candidateId: answered.id })]);
    expectNothingPersonal(entries[0]!, answered.email);

    const plain = await namedCandidate(w, "audit-delete-plain", false);
    await w.manager.pb.collection("candidates").delete(plain.id);
    expect(await entriesOf(w.company.id, plain.id)).toEqual([expect.objectContaining({ action: "delete", actor: w.manager.user.id })]);
    // the manager reads them in the company's log
    const log = await w.manager.pb.collection("audit_log").getFullList({ filter: w.manager.pb.filter("company = {:c}", { c: w.company.id }) });
    expect(log.map((e) => e.candidateId).sort()).toEqual([answered.id, plain.id].sort());
  });

  it("a job deleted with its candidates: one entry per candidate", async () => {
    const w = await world("audit-job");
    const first = await namedCandidate(w, "audit-job-first");
    const second = await namedCandidate(w, "audit-job-second", false);
    await w.manager.pb.collection("jobs").delete(w.job.id, confirmed);
    expect(await statusOf(() => su.collection("jobs").getOne(w.job.id))).toBe(404);
    const log = await su.collection("audit_log").getFullList({ filter: su.filter("company = {:c}", { c: w.company.id }) });
    expect(log.map((e) => [e.action, e.actorKind, e.actor, e.candidateId]).sort()).toEqual(
      [w.candidate.id, first.id, second.id].map((id) => ["job_delete", "manager", w.manager.user.id, id]).sort(),
    );
    for (const entry of log) expectNothingPersonal(entry, first.email);
    expect(JSON.stringify(log)).not.toContain(second.email);
  });

  it("a batch delete: one entry per candidate", async () => {
    const w = await world("audit-batch");
    const first = await namedCandidate(w, "audit-batch-first");
    const second = await namedCandidate(w, "audit-batch-second");
    const batch = w.manager.pb.createBatch();
    batch.collection("candidates").delete(first.id, confirmed);
    batch.collection("candidates").delete(second.id, confirmed);
    await batch.send();
    for (const c of [first, second]) {
      const entries = await entriesOf(w.company.id, c.id);
      expect(entries).toEqual([expect.objectContaining({ action: "delete", actorKind: "manager", actor: w.manager.user.id })]);
      expectNothingPersonal(entries[0]!, c.email);
    }
  });

  it("a superuser's delete, of a candidate or of a job: the system's act, without an actor", async () => {
    const w = await world("audit-superuser");
    const c = await namedCandidate(w, "audit-superuser");
    await su.collection("candidates").delete(c.id, confirmed);
    const entries = await entriesOf(w.company.id, c.id);
    expect(entries).toEqual([expect.objectContaining({ action: "delete", actorKind: "system", actor: "" })]);
    expectNothingPersonal(entries[0]!, c.email);
    await su.collection("jobs").delete(w.job.id, confirmed);
    expect(await entriesOf(w.company.id, w.candidate.id)).toEqual([expect.objectContaining({ action: "job_delete", actorKind: "system", actor: "" })]);
  });

  it("the erase route: still exactly one entry", async () => {
    const w = await world("audit-erase-once");
    const c = await namedCandidate(w, "audit-erase-once");
    await w.manager.pb.send(`/api/screenroom/candidates/${c.id}/erase`, { method: "POST" });
    const entries = await entriesOf(w.company.id, c.id);
    expect(entries).toEqual([expect.objectContaining({ action: "erase", actorKind: "manager", actor: w.manager.user.id })]);
    expectNothingPersonal(entries[0]!, c.email);
  });

  it("a removal that fails leaves no entry (a batch whose last item is refused rolls back the deletes before it)", async () => {
    const w = await world("audit-rollback");
    const first = await namedCandidate(w, "audit-rollback-first");
    const refused = await namedCandidate(w, "audit-rollback-refused");
    // the second delete is not confirmed: refused, and the whole batch with it
    const batch = w.manager.pb.createBatch();
    batch.collection("candidates").delete(first.id, confirmed);
    batch.collection("candidates").delete(refused.id);
    expect(await statusOf(() => batch.send())).toBe(400);
    // a job's delete with its candidates, likewise
    const jobBatch = w.manager.pb.createBatch();
    jobBatch.collection("jobs").delete(w.job.id, confirmed);
    jobBatch.collection("candidates").delete("nosuchcandidat");
    expect(await statusOf(() => jobBatch.send())).toBeGreaterThanOrEqual(400);
    for (const id of [first.id, refused.id, w.candidate.id]) expect((await su.collection("candidates").getOne(id)).id).toBe(id);
    expect(await su.collection("audit_log").getFullList({ filter: su.filter("company = {:c}", { c: w.company.id }) })).toEqual([]);
    // and the same deletes, once they go through, are logged once each
    const again = w.manager.pb.createBatch();
    again.collection("candidates").delete(first.id, confirmed);
    again.collection("candidates").delete(refused.id, confirmed);
    await again.send();
    for (const id of [first.id, refused.id]) expect(await entriesOf(w.company.id, id)).toHaveLength(1);
  });

  it("another company's manager deletes nothing and writes nothing; a company's delete takes its candidates and its log", async () => {
    const w = await world("audit-company");
    const c = await namedCandidate(w, "audit-company");
    expect(await statusOf(() => b.manager.pb.collection("candidates").delete(c.id, confirmed))).toBe(404);
    expect(await statusOf(() => b.manager.pb.collection("jobs").delete(w.job.id, confirmed))).toBe(404);
    expect(await su.collection("audit_log").getFullList({ filter: su.filter("company = {:c}", { c: w.company.id }) })).toEqual([]);
    await w.manager.pb.collection("candidates").delete(c.id, confirmed);
    expect(await entriesOf(w.company.id, c.id)).toHaveLength(1);
    // the company goes with everything it holds, its log included: no entry is left, and none is written for the
    // candidate it still had
    await w.manager.pb.collection("companies").delete(w.company.id);
    expect(await statusOf(() => su.collection("candidates").getOne(w.candidate.id))).toBe(404);
    expect(await su.collection("audit_log").getFullList({ filter: su.filter("company = {:c} || candidateId = {:a} || candidateId = {:b}", { c: w.company.id, a: c.id, b: w.candidate.id }) })).toEqual([]);
  });
});
