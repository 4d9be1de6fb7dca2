// The hiring funnel's figures (server/internal/analytics): GET /api/screenroom/jobs/{id}/analytics and
// GET /api/screenroom/companies/{id}/analytics, checked against candidates whose progress this file makes through the
// candidate's own routes (the interview read, consent, a question opened, answers) and the managers' (decisions), on
// a server of its own whose clock the test moves (decisions.md: time-based figures tested with the test clock): the
// weeks of the invites in the company's time zone, the times to complete, the reminders sent by their cron.
import type PocketBase from "pocketbase";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { answerText, asCandidate, createCompany, createJob, createQuestion, keyOf, signUp, superuser, uniqueEmail, useOwnServer, type OwnServer } from "./helpers";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

interface Figures {
  scope: "job" | "company";
  id: string;
  title: string;
  asOf: string;
  refreshing: boolean;
  timeZone: string;
  funnel: { invited: number; linkOpened: number; agreed: number; started: number; completed: number; decided: number };
  decisions: { advance: number; hold: number; reject: number };
  questions: { id: string; title: string; position: number; reached: number; answered: number; stopped: number }[];
  timeToComplete: { candidates: number; medianSeconds: number | null; p90Seconds: number | null };
  inviteToComplete: { candidates: number; medianSeconds: number | null; p90Seconds: number | null };
  weeks: { week: string; invited: number; completed: number }[];
  earlierWeeks: null | { before: string; invited: number; completed: number };
  reminders: { reminded: { candidates: number; completed: number; completedAfter: number }; notReminded: { candidates: number; completed: number } };
  jobs?: { id: string; title: string; invited: number; started: number; completed: number; decided: number }[];
}

let own: OwnServer;
let su: PocketBase;
let manager: Awaited<ReturnType<typeof signUp>>;
let company: { id: string };
let q1: string;
let q2: string;
let job: { id: string };
let other: { id: string };
let offset = 0;

/** The server's clock set to `at` (ms since the epoch); only ever forward. */
async function clockAt(at: number) {
  const next = at - Date.now();
  expect(next).toBeGreaterThanOrEqual(offset);
  offset = next;
  await su.send("/api/screenroom/test-clock", { method: "POST", body: { offsetMs: offset } });
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const dbTime = (ms: number) => new Date(ms).toISOString().replace("T", " ");

/** `latest`: the Refresh's read, every write counted before the answer. */
const jobFigures = (id = job.id, pb = manager.pb, latest = false) => pb.send<Figures>(`/api/screenroom/jobs/${id}/analytics${latest ? "?fresh=1" : ""}`, { method: "GET" });
const companyFigures = (pb = manager.pb) => pb.send<Figures>(`/api/screenroom/companies/${company.id}/analytics`, { method: "GET" });

async function invite(jobId: string, label: string, fields: Record<string, unknown> = {}) {
  // a superuser may give a deadline the invite form would (the reminders need one)
  const record = await su.collection("candidates").create({ job: jobId, email: uniqueEmail(label), ...fields });
  return record.id;
}

/** The candidate opens their link: the interview read. */
async function readLink(candidate: string) {
  const key = (await keyOf(candidate))!;
  await asCandidate(candidate).send(`/api/screenroom/interviews/${key}`, { method: "GET" });
}

async function agree(candidate: string) {
  const key = (await keyOf(candidate))!;
  await asCandidate(candidate).send(`/api/screenroom/interviews/${key}/consent`, { method: "POST" });
}

async function open(candidate: string, question: string) {
  const key = (await keyOf(candidate))!;
  await asCandidate(candidate).send(`/api/screenroom/interviews/${key}/questions/${question}/open`, { method: "POST" });
}

/** Opens the question and answers it at once (a text answer, within its time). */
async function answer(candidate: string, question: string) {
  await open(candidate, question);
  await answerText(candidate, question, "Because I like it.");
}

const decide = (candidate: string, decision: string) =>
  manager.pb.send(`/api/screenroom/candidates/${candidate}/decision`, { method: "POST", body: { decision } });

/** A candidate's hidden stamps, as a superuser reads them. */
const stamps = async (candidate: string) => {
  const record = await su.collection("candidates").getOne(candidate);
  return { invitedAt: record.invitedAt as string, linkOpenedAt: record.linkOpenedAt as string, questionOpenedAt: record.questionOpenedAt as string };
};

/** Waits until the interview reads of `candidates` are recorded (the server writes them a moment after the read). */
async function linkOpeningsRecorded(candidates: string[]) {
  await vi.waitFor(async () => expect((await Promise.all(candidates.map(stamps))).every((s) => s.linkOpenedAt !== "")).toBe(true), { timeout: 10_000, interval: 200 });
}

/** Runs the reminders' cron through the crons API and waits until `candidates` are stamped. */
async function remind(candidates: string[]) {
  await su.crons.run("screenroom_reminders");
  await vi.waitFor(
    async () => expect((await Promise.all(candidates.map((c) => su.collection("candidates").getOne(c)))).every((c) => c.remindedEarlyAt !== "")).toBe(true),
    { timeout: 30_000, interval: 250 },
  );
}

// a Monday, 00:00 UTC, two weeks ahead at least: every step of the test happens after it, on the server's clock
const base = (() => {
  const d = new Date(Date.now() + 14 * DAY);
  d.setUTCHours(0, 0, 0, 0);
  d.setUTCDate(d.getUTCDate() + ((8 - d.getUTCDay()) % 7));
  return d.getTime();
})();

/** The candidates by what this file makes them do. */
const c = {} as Record<
  | "invited"
  | "linkOpened"
  | "agreed"
  | "startedOnly"
  | "secondQuestion"
  | "tenMinutes"
  | "halfHour"
  | "remindedDone"
  | "remindedIdle"
  | "otherDone"
  | "otherInvited"
  | "nextWeek",
  string
>;

beforeAll(async () => {
  own = await useOwnServer();
  su = await superuser();
  manager = await signUp({ email: uniqueEmail("analytics-manager") });
  company = await createCompany(manager.pb, "Analytics Ltd");
  // weeks are cut in the company's time zone: New York, where Monday 02:00 UTC is still Sunday
  await manager.pb.collection("companies").update(company.id, { timeZone: "America/New_York" });
  q1 = (await createQuestion(manager.pb, company.id, "text", { title: "Why this job?" })).question.id;
  q2 = (await createQuestion(manager.pb, company.id, "text", { title: "Your best project" })).question.id;
  job = await createJob(manager.pb, company.id, [q1, q2]);
  other = await manager.pb.collection("jobs").create({ company: company.id, title: "Second job", description: "Another one", location: "Remote", questions: [q1] });

  // Sunday evening in New York: the week before
  await clockAt(base + 2 * HOUR);
  c.invited = await invite(job.id, "invited");

  // Monday evening in New York
  const t1 = base + DAY;
  await clockAt(t1);
  c.linkOpened = await invite(job.id, "link-opened");
  c.agreed = await invite(job.id, "agreed");
  c.startedOnly = await invite(job.id, "started-only");
  c.secondQuestion = await invite(job.id, "second-question");
  c.tenMinutes = await invite(job.id, "ten-minutes");
  c.halfHour = await invite(job.id, "half-hour");
  c.remindedDone = await invite(job.id, "reminded-done", { deadline: dbTime(t1 + 3 * DAY) });
  c.remindedIdle = await invite(job.id, "reminded-idle", { deadline: dbTime(t1 + 3 * DAY) });
  c.otherDone = await invite(other.id, "other-done");
  c.otherInvited = await invite(other.id, "other-invited");
  for (const id of [c.linkOpened, c.agreed, c.startedOnly, c.secondQuestion, c.tenMinutes, c.halfHour]) await readLink(id);
  for (const id of [c.agreed, c.startedOnly, c.secondQuestion, c.tenMinutes, c.halfHour]) await agree(id);
  await open(c.startedOnly, q1);
  await answer(c.secondQuestion, q1);
  await open(c.secondQuestion, q2);
  await answer(c.tenMinutes, q1);
  await answer(c.halfHour, q1);
  await clockAt(t1 + 10 * MINUTE);
  await answer(c.tenMinutes, q2);
  await clockAt(t1 + 30 * MINUTE);
  await answer(c.halfHour, q2);
  // the link read again later: the first read stays the one counted
  await readLink(c.linkOpened);

  // 36 hours before the deadline: the early reminder; one of the two then completes
  await clockAt(t1 + 36 * HOUR);
  await remind([c.remindedDone, c.remindedIdle]);
  await clockAt(t1 + 37 * HOUR);
  await readLink(c.remindedDone);
  await agree(c.remindedDone);
  await answer(c.remindedDone, q1);
  await answer(c.remindedDone, q2);

  // the week after: an invite that completes in 20 minutes, without the link's read recorded first (a stamp from
  // before the stamps existed reads the same way: completing implies the link was opened)
  const t2 = base + 8 * DAY;
  await clockAt(t2);
  c.nextWeek = await invite(job.id, "next-week");
  await agree(c.nextWeek);
  await answer(c.nextWeek, q1);
  await clockAt(t2 + 20 * MINUTE);
  await answer(c.nextWeek, q2);
  await agree(c.otherDone);
  await answer(c.otherDone, q1);

  await decide(c.tenMinutes, "advance");
  await decide(c.halfHour, "reject");
  await decide(c.secondQuestion, "hold");
  await linkOpeningsRecorded([c.linkOpened, c.agreed, c.startedOnly, c.secondQuestion, c.tenMinutes, c.halfHour, c.remindedDone]);
}, 240_000);

afterAll(async () => {
  await own?.stop();
});

describe("a job's figures", () => {
  it("count the funnel as each candidate went through it", async () => {
    const f = await jobFigures();
    expect(f).toMatchObject({ scope: "job", id: job.id, title: "Support engineer", timeZone: "America/New_York" });
    expect(f.funnel).toEqual({ invited: 10, linkOpened: 8, agreed: 7, started: 6, completed: 4, decided: 3 });
    expect(f.decisions).toEqual({ advance: 1, hold: 1, reject: 1 });
  });

  it("say per question, in the job's order, who reached it, answered it and stopped there", async () => {
    const f = await jobFigures();
    expect(f.questions).toEqual([
      { id: q1, title: "Why this job?", position: 1, reached: 6, answered: 5, stopped: 1 },
      { id: q2, title: "Your best project", position: 2, reached: 5, answered: 4, stopped: 1 },
    ]);
  });

  it("time the completions from the first question opened and from the invite, on the server's clock", async () => {
    const f = await jobFigures();
    // what the stamps say, to the millisecond (the real time between two requests is in them too)
    const done = await Promise.all([c.remindedDone, c.tenMinutes, c.nextWeek, c.halfHour].map((id) => su.collection("candidates").getOne(id)));
    const ms = (text: unknown) => Date.parse(String(text).replace(" ", "T"));
    const fromStart = done.map((r) => ms(r.completedAt) - ms(r.questionOpenedAt)).sort((x, y) => x - y);
    const fromInvite = done.map((r) => ms(r.completedAt) - ms(r.invitedAt)).sort((x, y) => x - y);
    const seconds = (value: number) => Math.floor((value + 500) / 1000);
    // about 0 s (reminded, answered at once), 10 min, 20 min, 30 min, as the test clock set them
    expect(fromStart.map((v) => Math.round(v / MINUTE))).toEqual([0, 10, 20, 30]);
    // nearest rank of four: the median is the 2nd, the 90th percentile the 4th
    expect(f.timeToComplete).toEqual({ candidates: 4, medianSeconds: seconds(fromStart[1]!), p90Seconds: seconds(fromStart[3]!) });
    // from the invite: 10 min, 20 min, 30 min and 37 hours
    expect(fromInvite.map((v) => Math.round(v / MINUTE))).toEqual([10, 20, 30, 37 * 60]);
    expect(f.inviteToComplete).toEqual({ candidates: 4, medianSeconds: seconds(fromInvite[1]!), p90Seconds: seconds(fromInvite[3]!) });
  });

  it("give the completion by invite week, weeks cut in the company's time zone", async () => {
    const f = await jobFigures();
    expect(f.weeks).toEqual([
      { week: day(base - 7 * DAY), invited: 1, completed: 0 },
      { week: day(base), invited: 8, completed: 3 },
      { week: day(base + 7 * DAY), invited: 1, completed: 1 },
    ]);
    expect(f.earlierWeeks).toBeNull();
  });

  it("compare the completion of the reminded with the others'", async () => {
    const f = await jobFigures();
    expect(f.reminders).toEqual({ reminded: { candidates: 2, completed: 1, completedAfter: 1 }, notReminded: { candidates: 8, completed: 3 } });
  });

  it("count a write at once on Refresh; else serve the kept ones with their time, counting it behind the read", async () => {
    await decide(c.nextWeek, "advance");
    const counted = await jobFigures(job.id, manager.pb, true);
    expect(counted.decisions).toEqual({ advance: 2, hold: 1, reject: 1 });
    expect(counted.refreshing).toBe(false);
    expect(Date.parse(counted.asOf.replace(" ", "T"))).toBeGreaterThanOrEqual(base + 8 * DAY);

    // right after a write, the figures kept (a moment old) are served as of their time, and say they are counted again
    await decide(c.nextWeek, "");
    const kept = await jobFigures();
    expect(kept.decisions).toEqual({ advance: 2, hold: 1, reject: 1 });
    expect(kept.refreshing).toBe(true);
    expect(kept.asOf).toBe(counted.asOf);
    // a read a moment later counts the write
    await vi.waitFor(
      async () => {
        const f = await jobFigures();
        expect([f.refreshing, f.decisions]).toEqual([false, { advance: 1, hold: 1, reject: 1 }]);
      },
      { timeout: 10_000, interval: 200 },
    );
  });

  it("compute figures kept longer than the staleness allows (decisions.md: 60 s) before the answer", async () => {
    await decide(c.nextWeek, "hold");
    await clockAt(base + 8 * DAY + 2 * HOUR);
    const f = await jobFigures();
    expect([f.refreshing, f.decisions]).toEqual([false, { advance: 1, hold: 2, reject: 1 }]);
    await decide(c.nextWeek, "");
    expect((await jobFigures(job.id, manager.pb, true)).decisions).toEqual({ advance: 1, hold: 1, reject: 1 });
  });
});

describe("the stamps", () => {
  it("keep the first read of a link, the first question opened and the invite, on the server's clock", async () => {
    const t1 = base + DAY;
    const opened = await stamps(c.linkOpened);
    // read at t1 and again 30 minutes later: the first stays
    expect(Date.parse(opened.linkOpenedAt.replace(" ", "T")) - t1).toBeLessThan(5 * MINUTE);
    expect(Date.parse(opened.invitedAt.replace(" ", "T")) - t1).toBeLessThan(5 * MINUTE);
    expect(opened.questionOpenedAt).toBe("");
    const started = await stamps(c.tenMinutes);
    expect(Date.parse(started.questionOpenedAt.replace(" ", "T")) - t1).toBeLessThan(5 * MINUTE);
  });

  it("are neither shown to nor taken from a manager", async () => {
    const record = await manager.pb.collection("candidates").getOne(c.linkOpened);
    expect(record).not.toHaveProperty("invitedAt");
    expect(record).not.toHaveProperty("linkOpenedAt");
    expect(record).not.toHaveProperty("questionOpenedAt");
    const before = await stamps(c.linkOpened);
    await manager.pb.collection("candidates").update(c.linkOpened, { invitedAt: "2001-01-01 00:00:00.000Z", linkOpenedAt: "", questionOpenedAt: "2001-01-01 00:00:00.000Z" });
    const made = await manager.pb.collection("candidates").create({ job: job.id, email: uniqueEmail("stamped"), invitedAt: "2001-01-01 00:00:00.000Z" });
    expect(await stamps(c.linkOpened)).toEqual(before);
    expect((await stamps(made.id)).invitedAt.startsWith("2001")).toBe(false);
    await su.collection("candidates").delete(made.id);
  });
});

describe("the company's figures", () => {
  it("add up its jobs, questions asked by several jobs over all of them", async () => {
    const [f, first, second] = await Promise.all([companyFigures(), jobFigures(job.id), jobFigures(other.id)]);
    expect(f).toMatchObject({ scope: "company", id: company.id, title: "Analytics Ltd" });
    expect(second.funnel).toEqual({ invited: 2, linkOpened: 1, agreed: 1, started: 1, completed: 1, decided: 0 });
    expect(f.funnel).toEqual({
      invited: first.funnel.invited + 2,
      linkOpened: first.funnel.linkOpened + 1,
      agreed: first.funnel.agreed + 1,
      started: first.funnel.started + 1,
      completed: first.funnel.completed + 1,
      decided: first.funnel.decided,
    });
    expect(f.questions).toEqual(
      expect.arrayContaining([
        { id: q1, title: "Why this job?", position: 0, reached: 7, answered: 6, stopped: 1 },
        { id: q2, title: "Your best project", position: 0, reached: 5, answered: 4, stopped: 1 },
      ]),
    );
    expect(f.weeks).toEqual([
      { week: day(base - 7 * DAY), invited: 1, completed: 0 },
      { week: day(base), invited: 10, completed: 4 },
      { week: day(base + 7 * DAY), invited: 1, completed: 1 },
    ]);
    expect(f.jobs).toEqual([
      { id: job.id, title: "Support engineer", archived: false, closed: false, invited: 10, started: 6, completed: 4, decided: first.funnel.decided },
      { id: other.id, title: "Second job", archived: false, closed: false, invited: 2, started: 1, completed: 1, decided: 0 },
    ]);
    expect(f.timeToComplete.candidates).toBe(5);
  });

  it("follow a job's questions when they change", async () => {
    await manager.pb.collection("jobs").update(other.id, { questions: [q1, q2] });
    const second = await jobFigures(other.id, manager.pb, true);
    // the one who had answered the only question now stopped at the new one
    expect(second.funnel.completed).toBe(0);
    expect(second.questions.map((q) => [q.position, q.reached, q.answered, q.stopped])).toEqual([
      [1, 1, 1, 0],
      [2, 0, 0, 1],
    ]);
    await manager.pb.collection("jobs").update(other.id, { questions: [q1] });
    expect((await jobFigures(other.id, manager.pb, true)).funnel.completed).toBe(1);
  });
});
