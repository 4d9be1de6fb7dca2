// Issue 19 point 5, as an attacker would try it: another company's manager, a candidate, an unverified account or an
// anonymous visitor closes or reopens a job, writes jobs.closedAt or companies.retentionMonths (records API, batch),
// reads the retention preview, or guesses the new fields through filters (`!=`, `>=`, `_via_` back-relations), sort
// and expand; a candidate of a closed job keeps answering; realtime tells another company's manager of the closing.
import type PocketBase from "pocketbase";
import { beforeAll, describe, expect, it } from "vitest";
import {
  anonymous,
  asCandidate,
  errorOf,
  keyOf,
  postAnswer,
  randomId,
  signUp,
  statusOf,
  superuser,
  uniqueEmail,
  world,
} from "../helpers";
import { answersOf, listOutcome } from "../support";
import { subscribe } from "./realtime";

let a: Awaited<ReturnType<typeof world>>;
let b: Awaited<ReturnType<typeof world>>;
let su: PocketBase;

beforeAll(async () => {
  a = await world("attack-lifecycle");
  b = await world("attack-lifecycle-other");
  su = await superuser();
});

const closeAs = (pb: PocketBase, job: string) => pb.send(`/api/screenroom/jobs/${job}/close`, { method: "POST" });
const reopenAs = (pb: PocketBase, job: string) => pb.send(`/api/screenroom/jobs/${job}/reopen`, { method: "POST" });
const closedAtOf = async (job: string) => (await su.collection("jobs").getOne(job)).closedAt as string;
const monthsOf = async (company: string) => (await su.collection("companies").getOne(company)).retentionMonths as number;

/** A job of A's company, fresh for each case (closing it touches nobody else's case). */
async function freshJob() {
  return su.collection("jobs").create({ company: a.company.id, title: "Attack job", description: "To close", location: "Remote", questions: [a.text.question.id] });
}

/**
 * An account whose e-mail is no longer confirmed, still holding a valid token, invited to A's company (as the access
 * matrix's "unverified" actor).
 */
async function unverifiedClient() {
  const unverified = await signUp({ email: uniqueEmail("lifecycle-unverified") });
  await a.manager.pb.collection("manager_invites").create({ company: a.company.id, email: unverified.user.email });
  await su.collection("users").update(unverified.user.id, { verified: false });
  return { pb: unverified.pb, id: unverified.user.id };
}

describe("closing a job", () => {
  it("is refused (404) to another company's manager, a company-less user, a candidate, an anonymous visitor and an unverified account", async () => {
    const job = await freshJob();
    const { pb: stranger } = await signUp({ email: uniqueEmail("lifecycle-stranger") });
    const unverified = await unverifiedClient();
    for (const pb of [b.manager.pb, stranger, asCandidate(a.candidate.id), anonymous(), unverified.pb]) {
      expect(await statusOf(() => closeAs(pb, job.id))).toBe(404);
    }
    expect(await closedAtOf(job.id)).toBe("");
    await su.collection("jobs").update(job.id, { closedAt: "2026-01-01 00:00:00.000Z" });
    for (const pb of [b.manager.pb, stranger, asCandidate(a.candidate.id), anonymous(), unverified.pb]) {
      expect(await statusOf(() => reopenAs(pb, job.id))).toBe(404);
    }
    expect(await closedAtOf(job.id)).toBe("2026-01-01 00:00:00.000Z");
  });

  it("cannot be done or undone through the records API or a batch, not even by the company's own manager", async () => {
    const job = await freshJob();
    await a.manager.pb.collection("jobs").update(job.id, { closedAt: "2026-01-01 00:00:00.000Z" });
    expect(await closedAtOf(job.id)).toBe("");
    const batch = a.manager.pb.createBatch();
    batch.collection("jobs").update(job.id, { closedAt: "2026-01-01 00:00:00.000Z" });
    await batch.send().catch(() => undefined);
    expect(await closedAtOf(job.id)).toBe("");
    const other = b.manager.pb.createBatch();
    other.collection("jobs").update(job.id, { closedAt: "2026-01-01 00:00:00.000Z" });
    expect(await statusOf(() => other.send())).toBeGreaterThanOrEqual(400);
    expect(await closedAtOf(job.id)).toBe("");

    await closeAs(a.manager.pb, job.id);
    const closedAt = await closedAtOf(job.id);
    const reopen = a.manager.pb.createBatch();
    reopen.collection("jobs").update(job.id, { closedAt: "" });
    await reopen.send().catch(() => undefined);
    expect(await closedAtOf(job.id)).toBe(closedAt);
  });

  it("leaves a candidate of the closed job nothing to send, whatever it presents", async () => {
    const job = await freshJob();
    const candidate = await a.manager.pb.collection("candidates").create({ job: job.id, email: uniqueEmail("lifecycle-cand") });
    const key = (await keyOf(candidate.id))!;
    await asCandidate(candidate.id).send(`/api/screenroom/interviews/${key}/consent`, { method: "POST" });
    await closeAs(a.manager.pb, job.id);
    const answer = () => postAnswer(asCandidate(candidate.id), { id: randomId(), candidate: candidate.id, question: a.text.question.id, content: "Still here." });
    const refused = await errorOf(answer);
    expect({ status: refused.status, code: (refused.response.data as { interview?: { code?: string } }).interview?.code }).toEqual({ status: 403, code: "job_closed" });
    // the records API never took answers from candidates
    expect(await statusOf(() => asCandidate(candidate.id).collection("answers").create({ candidate: candidate.id, question: a.text.question.id }))).toBeGreaterThanOrEqual(400);
    expect(await answersOf(candidate.id)).toBe(0);
  });

  it("sends no realtime event of A's job to another company's manager", async () => {
    const job = await freshJob();
    const sub = await subscribe(b.manager.pb.authStore.token, ["jobs/*"]);
    await closeAs(a.manager.pb, job.id);
    // B's own job changing is the marker: any event of A's job would have come before it
    await b.manager.pb.collection("jobs").update(b.job.id, { title: `Marker ${randomId()}` });
    const events = (await sub.until(b.job.id)).map((e) => `${e.event} ${e.data}`);
    for (const event of events) expect(event).not.toContain(job.id);
  });
});

describe("the new fields in filters, sort and expand", () => {
  it("tell another company's manager nothing of A's closedAt or retentionMonths: right and wrong guesses answer alike", async () => {
    await closeAs(a.manager.pb, (await freshJob()).id);
    await su.collection("companies").update(a.company.id, { retentionMonths: 6 });
    const guesses: [string, string][] = [
      [`company = "${a.company.id}" && closedAt != ""`, `company = "${a.company.id}" && closedAt = "x"`],
      [`company = "${a.company.id}" && closedAt >= "2000-01-01"`, `company = "${a.company.id}" && closedAt >= "2999-01-01"`],
      [`company.retentionMonths >= 6 && company = "${a.company.id}"`, `company.retentionMonths >= 7 && company = "${a.company.id}"`],
      [`company.retentionMonths != 0 && company = "${a.company.id}"`, `company.retentionMonths != 6 && company = "${a.company.id}"`],
    ];
    for (const [right, wrong] of guesses) {
      expect(await listOutcome(b.manager.pb, "jobs", { filter: right })).toEqual(await listOutcome(b.manager.pb, "jobs", { filter: wrong }));
    }
    const companyGuesses: [string, string][] = [
      [`id = "${a.company.id}" && retentionMonths >= 6`, `id = "${a.company.id}" && retentionMonths >= 7`],
      [`id = "${a.company.id}" && jobs_via_company.closedAt != ""`, `id = "${a.company.id}" && jobs_via_company.closedAt = "x"`],
    ];
    for (const [right, wrong] of companyGuesses) {
      expect(await listOutcome(b.manager.pb, "companies", { filter: right })).toEqual(await listOutcome(b.manager.pb, "companies", { filter: wrong }));
    }
    // the candidate of A's job, from its own record: the company's period is not its to learn either
    const cand = asCandidate(a.candidate.id);
    const right = await listOutcome(cand, "candidates", { filter: `job.company.retentionMonths >= 6` });
    const wrong = await listOutcome(cand, "candidates", { filter: `job.company.retentionMonths >= 7` });
    expect(right).toEqual(wrong);
    // sort and expand from B's side reach only B's own
    const sorted = await listOutcome(b.manager.pb, "jobs", { sort: "-closedAt", filter: `company = "${a.company.id}"` });
    expect(sorted).toMatchObject({ status: 200, count: 0 });
    const expanded = await b.manager.pb.collection("jobs").getFullList({ expand: "company" });
    expect(expanded.every((job) => job.company === b.company.id)).toBe(true);
    await su.collection("companies").update(a.company.id, { retentionMonths: 0 });
  });
});

describe("the retention period", () => {
  it("is set by the company's managers only (records API and batch), from the list only", async () => {
    await su.collection("companies").update(a.company.id, { retentionMonths: 0 });
    const { pb: stranger } = await signUp({ email: uniqueEmail("lifecycle-ret-stranger") });
    for (const pb of [b.manager.pb, stranger, asCandidate(a.candidate.id), anonymous()]) {
      expect(await statusOf(() => pb.collection("companies").update(a.company.id, { retentionMonths: 36 }))).toBe(404);
    }
    const batch = b.manager.pb.createBatch();
    batch.collection("companies").update(a.company.id, { retentionMonths: 36 });
    expect(await statusOf(() => batch.send())).toBeGreaterThanOrEqual(400);
    expect(await monthsOf(a.company.id)).toBe(0);
    for (const value of [-1, 1, 7, 1000, 6.5]) {
      expect(await statusOf(() => a.manager.pb.collection("companies").update(a.company.id, { retentionMonths: value }))).toBe(400);
    }
    expect(await monthsOf(a.company.id)).toBe(0);
  });

  it("preview is the company's managers' only, and says nothing of another company's candidates", async () => {
    const unverified = await unverifiedClient();
    for (const pb of [b.manager.pb, asCandidate(a.candidate.id), anonymous(), unverified.pb]) {
      expect(await statusOf(() => pb.send(`/api/screenroom/companies/${a.company.id}/retention`, {}))).toBe(404);
    }
    // B's own preview lists none of A's candidates
    await su.collection("companies").update(b.company.id, { retentionMonths: 3 });
    const own = await b.manager.pb.send<{ candidates: { id: string }[] }>(`/api/screenroom/companies/${b.company.id}/retention`, {});
    expect(own.candidates.map((c) => c.id)).not.toContain(a.candidate.id);
    await su.collection("companies").update(b.company.id, { retentionMonths: 0 });
  });
});
