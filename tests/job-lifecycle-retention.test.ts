// Issue 19 point 5: closing and reopening a job (POST /api/screenroom/jobs/{id}/close and /reopen, server/internal/jobs)
// and retention (companies.retentionMonths, the cron `screenroom_retention` deleting through the erasure,
// GET /api/screenroom/companies/{id}/retention: server/internal/lifecycle/retention.go). On the suite's own
// PocketBase: its clock is moved forward (SCREENROOM_TEST_CLOCK), its storage folder holds nobody else's files, and
// its crons never fire on their own (RETENTION_SCHEDULE and REMINDERS_SCHEDULE that never come): only the runs
// started here through the crons API.
import { existsSync } from "node:fs";
import { join } from "node:path";
import type PocketBase from "pocketbase";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  anonymous,
  answerText,
  answerVideo,
  asCandidate,
  consent,
  createJob,
  createQuestion,
  errorOf,
  fixture,
  keyOf,
  postAnswer,
  putPart,
  randomId,
  signUp,
  statusOf,
  superuser,
  uniqueEmail,
  useOwnServer,
  world,
  type OwnServer,
} from "./helpers";
import { createLink } from "./share-link-support";
import { candidateRowsLeft, entriesOf, partsOf } from "./support";

const DAY = 24 * 60 * 60 * 1000;
const NEVER = "0 0 31 2 *";

let server: OwnServer;
let su: PocketBase;
let offsetMs = 0;

beforeAll(async () => {
  server = await useOwnServer({ RETENTION_SCHEDULE: NEVER, REMINDERS_SCHEDULE: NEVER });
  su = await superuser();
});
afterAll(async () => {
  await server?.stop();
});

/** Moves the own server's clock `ms` further forward (never back). */
async function advance(ms: number) {
  offsetMs += ms;
  await su.send("/api/screenroom/test-clock", { method: "POST", body: { offsetMs } });
}

const close = (pb: PocketBase, job: string) => pb.send<{ closedAt: string }>(`/api/screenroom/jobs/${job}/close`, { method: "POST" });
const reopen = (pb: PocketBase, job: string) => pb.send<{ closedAt: string }>(`/api/screenroom/jobs/${job}/reopen`, { method: "POST" });

interface Interview {
  closed: null | { reason: string; at: string };
  questions: { id: string }[];
}
async function interview(candidate: string) {
  const key = (await keyOf(candidate))!;
  return asCandidate(candidate).send<Interview>(`/api/screenroom/interviews/${key}`, {});
}

/** The refusal's status and code (data.interview.code) of a candidate's call that must fail. */
async function refusalOf(call: () => Promise<unknown>) {
  const err = await errorOf(call);
  return { status: err.status, code: (err.response.data as { interview?: { code?: string } })?.interview?.code };
}

async function count(collection: string, filter: string, params: Record<string, unknown>) {
  return (await su.collection(collection).getList(1, 1, { filter: su.filter(filter, params) })).totalItems;
}

/** The log entries of a cron's runs, oldest first (each run logs one entry named after the cron). */
async function runLogs(name: string) {
  const logs = await su.logs.getList(1, 500, { filter: su.filter("message = {:name}", { name }), sort: "created", skipTotal: true });
  return logs.items.map((log) => log.data as Record<string, number>);
}

/** Runs a cron once through the crons API and waits for that run's log entry. */
async function runCron(name: string) {
  const before = (await runLogs(name)).length;
  await su.crons.run(name);
  let logs: Record<string, number>[] = [];
  await expect.poll(async () => (logs = await runLogs(name)).length, { timeout: 60_000, interval: 500 }).toBe(before + 1);
  return logs[before]!;
}

describe("closing a job", () => {
  it("is for the company's managers only, and its closedAt cannot be written through the records API", async () => {
    const w = await world("close-rules");
    const other = await world("close-other");
    const { pb: stranger } = await signUp({ email: uniqueEmail("close-stranger") });
    for (const pb of [other.manager.pb, stranger, anonymous(), asCandidate(w.candidate.id)]) {
      expect(await statusOf(() => close(pb, w.job.id))).toBe(404);
    }
    expect(await statusOf(() => close(w.manager.pb, "nosuchjob123456"))).toBe(404);
    expect((await su.collection("jobs").getOne(w.job.id)).closedAt).toBe("");

    // the records API: a manager's update keeps the stored value, a new job starts open
    await w.manager.pb.collection("jobs").update(w.job.id, { closedAt: "2026-01-01 00:00:00.000Z" });
    expect((await su.collection("jobs").getOne(w.job.id)).closedAt).toBe("");
    const job = await w.manager.pb.collection("jobs").create({
      company: w.company.id,
      title: "Closed at birth",
      description: "Tries to start closed",
      location: "Remote",
      questions: [w.text.question.id],
      closedAt: "2026-01-01 00:00:00.000Z",
    });
    expect(job.closedAt).toBe("");

    const { closedAt } = await close(w.manager.pb, w.job.id);
    expect(closedAt).not.toBe("");
    // closing again keeps the first time; another company's manager still cannot reopen it
    expect((await close(w.manager.pb, w.job.id)).closedAt).toBe(closedAt);
    expect(await statusOf(() => reopen(other.manager.pb, w.job.id))).toBe(404);
    await w.manager.pb.collection("jobs").update(w.job.id, { closedAt: "" });
    expect((await su.collection("jobs").getOne(w.job.id)).closedAt).toBe(closedAt);
    expect((await reopen(w.manager.pb, w.job.id)).closedAt).toBe("");
    expect((await su.collection("jobs").getOne(w.job.id)).closedAt).toBe("");
  });

  it("shows the candidate the closed page, refuses answers, parts, openings and invites, deletes nothing; reopening restores all", async () => {
    const w = await world("close-candidate");
    await answerText(w.candidate.id, w.text.question.id);
    const { closedAt } = await close(w.manager.pb, w.job.id);

    const seen = await interview(w.candidate.id);
    expect(seen.closed).toEqual({ reason: "job_closed", at: closedAt });
    expect(seen.questions).toEqual([]);
    expect(await count("answers", "candidate = {:c}", { c: w.candidate.id })).toBe(1);

    const candidate = asCandidate(w.candidate.id);
    const key = (await keyOf(w.candidate.id))!;
    expect(await refusalOf(() => postAnswer(candidate, { id: randomId(), question: w.video.question.id, file: new File([fixture("answer.webm")], "a.webm", { type: "video/webm" }) }))).toEqual({ status: 403, code: "job_closed" });
    expect(await refusalOf(() => putPart(candidate, randomId(), 0, new Uint8Array(fixture("answer.webm")).subarray(0, 1000), w.video.question.id))).toEqual({ status: 403, code: "job_closed" });
    expect(await refusalOf(() => candidate.send(`/api/screenroom/interviews/${key}/questions/${w.video.question.id}/open`, { method: "POST" }))).toEqual({ status: 403, code: "job_closed" });

    // no new invites: a single one, a CSV import, a link sent again
    const email = uniqueEmail("close-new");
    const single = await errorOf(() => w.manager.pb.collection("candidates").create({ job: w.job.id, email }));
    expect(single.status).toBe(400);
    expect(single.response.data.job).toMatchObject({ code: "validation_job_closed", message: "This job is closed. Reopen it to invite candidates." });
    const bulk = await errorOf(() => w.manager.pb.send(`/api/screenroom/jobs/${w.job.id}/invites/bulk`, { method: "POST", body: { importId: `imp-${randomId()}`, rows: [{ email }] } }));
    expect(bulk.status).toBe(400);
    expect(bulk.response.data.job).toMatchObject({ code: "validation_job_closed" });
    expect(await count("candidates", "email = {:e}", { e: email })).toBe(0);
    const resend = await errorOf(() => w.manager.pb.send(`/api/screenroom/candidates/${w.candidate.id}/resend-invite`, { method: "POST" }));
    expect(resend.status).toBe(400);
    expect(resend.response.data.job).toMatchObject({ code: "validation_job_closed" });

    await reopen(w.manager.pb, w.job.id);
    const again = await interview(w.candidate.id);
    expect(again.closed).toBeNull();
    expect(again.questions.map((q) => q.id)).toEqual([w.video.question.id, w.text.question.id]);
    await answerVideo(w.candidate.id, w.video.question.id);
    expect(await count("answers", "candidate = {:c}", { c: w.candidate.id })).toBe(2);
    const invited = await w.manager.pb.collection("candidates").create({ job: w.job.id, email });
    expect(invited.email).toBe(email);
    expect((await w.manager.pb.send<{ sentAt: string }>(`/api/screenroom/candidates/${invited.id}/resend-invite`, { method: "POST" })).sentAt).not.toBe("");
  });

  it("sends no reminder to the candidates of a closed job", async () => {
    const w = await world("close-reminders");
    // invited 50 hours before the deadline, then the clock moves 10 hours on: the 48-hour reminder is due
    const deadline = new Date(Date.now() + offsetMs + 50 * 60 * 60 * 1000).toISOString().replace("T", " ");
    const open = await su.collection("candidates").create({ job: w.job.id, email: uniqueEmail("rem-open"), deadline });
    const closedJob = await createJob(w.manager.pb, w.company.id, [w.text.question.id]);
    const inClosed = await su.collection("candidates").create({ job: closedJob.id, email: uniqueEmail("rem-closed"), deadline });
    await close(w.manager.pb, closedJob.id);
    await advance(10 * 60 * 60 * 1000);
    await runCron("screenroom_reminders");
    // the candidate of the open job is stamped (sent); the one of the closed job is not
    expect((await su.collection("candidates").getOne(open.id)).remindedEarlyAt).not.toBe("");
    expect((await su.collection("candidates").getOne(inClosed.id)).remindedEarlyAt).toBe("");
  });
});

/** The folder PocketBase stores a record's files in ({dataDir}/storage/{collectionId}/{recordId}). */
async function storageOf(collection: string, recordId: string) {
  const { id } = await su.collections.getOne(collection);
  return join(server.dataDir, "storage", id, recordId);
}
const takeDirOf = (take: string) => join(server.dataDir, "screenroom_takes", take);
const entries = entriesOf;

/** Everything of a candidate's, counted by a superuser, in every store retention must empty. */
async function leftOf(candidate: string, email: string) {
  return { ...(await candidateRowsLeft(candidate)), mail_queue: await count("mail_queue", "to = {:e}", { e: email }) };
}

interface Preview {
  retentionMonths: number;
  nextRunAt: string;
  count: number;
  candidates: { id: string; email: string; jobId: string; jobTitle: string; reason: string; since: string }[];
}
const preview = (pb: PocketBase, company: string) => pb.send<Preview>(`/api/screenroom/companies/${company}/retention`, {});

const word = (prefix: string) => `${prefix}${Math.random().toString(36).slice(2, 8)}`.replace(/[0-9]/g, "q");
const search = (pb: PocketBase, company: string, q: string) =>
  pb.send<{ items: { answer: string }[] }>(`/api/screenroom/companies/${company}/search`, { query: { q } });

describe("retention", () => {
  it("lets only the company's managers set a period from the list, and read what the next run deletes", async () => {
    const w = await world("ret-access");
    const other = await world("ret-access-other");
    expect((await su.collection("companies").getOne(w.company.id)).retentionMonths).toBe(0);
    expect(await statusOf(() => other.manager.pb.collection("companies").update(w.company.id, { retentionMonths: 6 }))).toBe(404);
    expect(await statusOf(() => asCandidate(w.candidate.id).collection("companies").update(w.company.id, { retentionMonths: 6 }))).toBe(404);
    const odd = await errorOf(() => w.manager.pb.collection("companies").update(w.company.id, { retentionMonths: 5 }));
    expect(odd.status).toBe(400);
    expect(odd.response.data.retentionMonths).toMatchObject({ message: "Choose how long to keep candidates from the list." });
    expect((await w.manager.pb.collection("companies").update(w.company.id, { retentionMonths: 12 })).retentionMonths).toBe(12);

    const { pb: stranger } = await signUp({ email: uniqueEmail("ret-stranger") });
    for (const pb of [other.manager.pb, stranger, anonymous(), asCandidate(w.candidate.id)]) {
      expect(await statusOf(() => preview(pb, w.company.id))).toBe(404);
    }
    expect(await statusOf(() => preview(w.manager.pb, "nosuchcompany12"))).toBe(404);
    // this server's schedule never comes: no next run, and who is due now (nobody yet)
    expect(await preview(w.manager.pb, w.company.id)).toEqual({ retentionMonths: 12, nextRunAt: "", count: 0, candidates: [] });
  });

  it("deletes, once, the candidates of a job closed longer than the period and those inactive longer, with everything they own", async () => {
    // company A keeps 6 months: a1 (everything a candidate can own; job closed now), a2 (invited now, nothing more)
    const a = await world("ret-a");
    await a.manager.pb.collection("companies").update(a.company.id, { retentionMonths: 6 });
    const third = await createQuestion(a.manager.pb, a.company.id, "video", { title: "Third question" });
    await a.manager.pb.collection("jobs").update(a.job.id, { questions: [a.video.question.id, a.text.question.id, third.question.id] });
    const a1 = a.candidate;
    const topic = word("retain");
    const videoAnswer = await answerVideo(a1.id, a.video.question.id);
    await answerText(a1.id, a.text.question.id, `I once ran a ${topic} migration.`);
    const take = randomId();
    await putPart(asCandidate(a1.id), take, 0, new Uint8Array(fixture("answer.webm")).subarray(0, 1000), third.question.id);
    await a.manager.pb.collection("ratings").create({ answer: videoAnswer.answer.id, candidate: a1.id, manager: a.manager.user.id, stars: 4 });
    await a.manager.pb.collection("comments").create({ candidate: a1.id, author: a.manager.user.id, text: "Clear answers." });
    await createLink(a.manager.pb, { candidate: a1.id });
    await a.manager.pb.send(`/api/screenroom/candidates/${a1.id}/decision`, { method: "POST", body: { decision: "reject" } });
    await a.manager.pb.send(`/api/screenroom/candidates/${a1.id}/decision-message`, { method: "POST", body: { kind: "reject" } });
    const endpoint = await su.collection("webhook_endpoints").create({ company: a.company.id, url: "https://hooks.example.com/screenroom", events: ["candidate.invited"], enabled: false });
    await su.collection("webhook_deliveries").create({ endpoint: endpoint.id, candidate: a1.id, event: "candidate.invited", payload: {}, status: "succeeded" });
    const secondJob = await createJob(a.manager.pb, a.company.id, [a.text.question.id]);
    const a2 = await a.manager.pb.collection("candidates").create({ job: secondJob.id, email: uniqueEmail("ret-a2") });
    await close(a.manager.pb, a.job.id);

    // company B keeps forever (no period), company C 12 months: both with a closed job and an idle candidate
    const b = await world("ret-b");
    await close(b.manager.pb, b.job.id);
    const c = await world("ret-c");
    await c.manager.pb.collection("companies").update(c.company.id, { retentionMonths: 12 });
    await close(c.manager.pb, c.job.id);

    const videoDir = await storageOf("video_answers", videoAnswer.kind.id);
    expect(entries(videoDir).length).toBeGreaterThan(0);
    expect(partsOf(takeDirOf(take))).toEqual(["0"]);
    const before = await leftOf(a1.id, a1.email);
    expect(before).toMatchObject({ candidates: 1, answers: 2, video_answers: 1, text_answers: 1, ratings: 1, comments: 1, share_links: 1, staged_takes: 1, webhook_deliveries: 1, decision_messages: 1 });
    expect(before.question_progress).toBeGreaterThan(0);
    expect(before.mail_queue).toBeGreaterThan(0);
    expect((await search(a.manager.pb, a.company.id, topic)).items).toHaveLength(1);

    // five months on, a3 opens a question: recent activity
    await advance(150 * DAY);
    const a3 = await a.manager.pb.collection("candidates").create({ job: secondJob.id, email: uniqueEmail("ret-a3") });
    await consent(a3.id);
    const key3 = (await keyOf(a3.id))!;
    await asCandidate(a3.id).send(`/api/screenroom/interviews/${key3}/questions/${a.text.question.id}/open`, { method: "POST" });
    expect((await preview(a.manager.pb, a.company.id)).count).toBe(0);
    expect((await runCron("screenroom_retention")).deleted).toBe(0);

    // past six months: a1 (job closed) and a2 (inactive) are due, a3 is not
    await advance(40 * DAY);
    const due = await preview(a.manager.pb, a.company.id);
    expect(due.count).toBe(2);
    expect(due.candidates.map((x) => ({ id: x.id, email: x.email, jobId: x.jobId, reason: x.reason })).sort((x, y) => x.id.localeCompare(y.id))).toEqual(
      [
        { id: a1.id, email: a1.email, jobId: a.job.id, reason: "job_closed" },
        { id: a2.id, email: a2.email, jobId: secondJob.id, reason: "inactive" },
      ].sort((x, y) => x.id.localeCompare(y.id)),
    );
    expect(due.candidates.find((x) => x.id === a1.id)!.jobTitle).toBe(a.job.title);

    expect(await runCron("screenroom_retention")).toMatchObject({ deleted: 2, failed: 0 });
    const gone = await leftOf(a1.id, a1.email);
    expect(gone).toEqual({ candidates: 0, answers: 0, video_answers: 0, text_answers: 0, ratings: 0, comments: 0, share_links: 0, question_progress: 0, staged_takes: 0, webhook_deliveries: 0, decision_messages: 0, mail_queue: 0 });
    expect(await leftOf(a2.id, a2.email)).toMatchObject({ candidates: 0, mail_queue: 0 });
    await expect.poll(() => existsSync(videoDir), { timeout: 30_000 }).toBe(false);
    await expect.poll(() => existsSync(takeDirOf(take)), { timeout: 30_000 }).toBe(false);
    expect((await search(a.manager.pb, a.company.id, topic)).items).toEqual([]);
    // the audit log names each erased candidate by id only, as the retention's doing (no actor)
    const audit = await a.manager.pb.collection("audit_log").getFullList({ filter: `company = "${a.company.id}"` });
    expect(audit.map((entry) => [entry.action, entry.candidateId, entry.actorKind, entry.actor]).sort()).toEqual(
      [["retention_erase", a1.id, "retention", ""], ["retention_erase", a2.id, "retention", ""]].sort(),
    );

    // kept: the recent candidate, the company without a period, the company with a longer one; the jobs themselves
    expect(await count("candidates", "id = {:c}", { c: a3.id })).toBe(1);
    expect(await count("candidates", "id = {:c}", { c: b.candidate.id })).toBe(1);
    expect(await count("candidates", "id = {:c}", { c: c.candidate.id })).toBe(1);
    expect(await count("jobs", "id = {:j}", { j: a.job.id })).toBe(1);
    expect((await preview(a.manager.pb, a.company.id)).count).toBe(0);

    // a second run deletes nothing more
    expect(await runCron("screenroom_retention")).toMatchObject({ deleted: 0, failed: 0 });
    expect(await count("candidates", "id = {:c}", { c: a3.id })).toBe(1);
  });
});

// The schedule arithmetic (the next run the preview shows, how far back a period reaches) is tested in Go:
// server/internal/lifecycle/retention_test.go.
