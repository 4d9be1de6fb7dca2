// Issue 17 point 5: the e-mails the server sends on its own (server/internal/mail/candidate_mails.go).
// - Reminders: the cron `screenroom_reminders`, run through PocketBase's crons API as a superuser on
//   this suite's own server, whose clock the test moves (POST /api/screenroom/test-clock). Each run is run twice: the
//   second sends nothing. The crons API only starts a run; each run logs one "screenroom_reminders" entry with what
//   it sent, which the test waits for before it looks at the mailbox.
// - Completion: the last answer sends the candidate's receipt and a notice to each manager who has not turned them
//   off, once.
// Both go through the mail queue (mail_queue.go): a mail arrives a moment after the run or answer that queued it.
import type PocketBase from "pocketbase";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Mail,
  type OwnServer,
  answerText,
  answerVideo,
  consent,
  createJob,
  keyOf,
  linksIn,
  mailsTo,
  signUp,
  superuser,
  uniqueEmail,
  useOwnServer,
  waitForMail,
  world,
} from "./helpers";

const HOUR = 60 * 60 * 1000;
const EARLY = /^Reminder: your interview for /;
const LATE = / closes in a few hours$/;
const RECEIPT = /^We received your answers for /;
const NOTICE = / finished the interview for /;
const APP_URL = "http://app.screenroom.test";

let server: OwnServer;
let su: PocketBase;
let w: Awaited<ReturnType<typeof world>>;

beforeAll(async () => {
  // no scheduled run (31 February never comes): every run is one the test starts, so each one's log entry is its own
  server = await useOwnServer({ REMINDERS_SCHEDULE: "0 0 31 2 *" });
  su = await superuser();
  w = await world("mails");
});

afterAll(async () => {
  await setClock(0).catch(() => undefined);
  await server?.stop();
});

async function setClock(offsetMs: number) {
  await su.send("/api/screenroom/test-clock", { method: "POST", body: { offsetMs } });
}

/** PocketBase's date text of `ms`. */
const dbTime = (ms: number) => new Date(ms).toISOString().replace("T", " ");

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
/** How the e-mails write a deadline: "24 November 2026 at 13:00 UTC". */
function deadlineText(ms: number) {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} at ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())} UTC`;
}

interface RunLog {
  early: number;
  late: number;
}

async function runLogs(): Promise<RunLog[]> {
  const logs = await su.logs.getList(1, 500, { filter: 'message = "screenroom_reminders"', sort: "created", skipTotal: true });
  return logs.items.map((log) => log.data as unknown as RunLog);
}

/** Runs the reminders cron once through the crons API and waits for that run's log entry: what it sent. */
async function runReminders(): Promise<RunLog> {
  const before = (await runLogs()).length;
  await su.crons.run("screenroom_reminders");
  let logs: RunLog[] = [];
  await expect
    .poll(async () => (logs = await runLogs()).length, { timeout: 60_000, interval: 500 })
    .toBe(before + 1);
  const run = logs[before]!;
  return { early: run.early, late: run.late };
}

const subjectsTo = async (address: string) => (await mailsTo(address)).map((m) => m.subject);

/** A candidate of `job` created by a superuser (so any deadline is allowed), optionally with more fields. */
async function seed(job: string, label: string, fields: Record<string, unknown> = {}) {
  const record = await su.collection("candidates").create({ job, email: uniqueEmail(label), ...fields });
  return { id: record.id, email: record.email as string, deadline: fields.deadline as string | undefined };
}

describe("reminders", () => {
  it("goes 48 hours and 4 hours before the deadline, each once, never to the completed or the withdrawn", async () => {
    expect(await su.crons.getFullList()).toContainEqual({ id: "screenroom_reminders", expression: "0 0 31 2 *" });
    // the deadlines are counted from the real time the records are created (their `created`), the clock starts there
    await setClock(0);
    const t0 = Date.now();
    const onlyText = await createJob(w.manager.pb, w.company.id, [w.text.question.id]);
    const inThreeDays = dbTime(t0 + 72 * HOUR);
    const both = await seed(w.job.id, "both", { deadline: inThreeDays });
    const started = await seed(w.job.id, "started", { deadline: inThreeDays });
    const tenHours = await seed(w.job.id, "ten-hours", { deadline: dbTime(t0 + 10 * HOUR) });
    const threeHours = await seed(w.job.id, "three-hours", { deadline: dbTime(t0 + 3 * HOUR) });
    const withdrawn = await seed(w.job.id, "withdrawn", { deadline: inThreeDays, withdrawn: true });
    const noDeadline = await seed(w.job.id, "no-deadline");
    const completed = await seed(onlyText.id, "completed", { deadline: inThreeDays });
    await consent(started.id);
    await answerVideo(started.id, w.video.question.id);
    await consent(completed.id);
    await answerText(completed.id, w.text.question.id);
    await waitForMail(completed.email, RECEIPT); // its completion mails are sent; they are not reminders
    expect((await su.collection("candidates").getOne(completed.id)).status).toBe("completed");
    expect((await su.collection("candidates").getOne(started.id)).status).toBe("started");
    const everyone = [both, started, tenHours, threeHours, withdrawn, noDeadline, completed];

    // now: nothing is due (three hours away, but invited three hours ahead: no reminder makes sense)
    expect(await runReminders()).toEqual({ early: 0, late: 0 });

    // 7 hours on: the one invited 10 hours ahead is 3 hours from its deadline: the 4-hour reminder, once
    await setClock(7 * HOUR);
    expect(await runReminders()).toEqual({ early: 0, late: 1 });
    expect(await runReminders()).toEqual({ early: 0, late: 0 });
    const late10 = await waitForMail(tenHours.email, LATE);
    expect(late10.subject).toBe("Your interview for Support engineer at mails company closes in a few hours");
    expect(late10.html).toContain(deadlineText(t0 + 10 * HOUR));
    expect(linksIn(late10)).toContain(`${APP_URL}/candidates/${await keyOf(tenHours.id)}`);

    // 25 hours on: 47 hours before the three-day deadline: the 48-hour reminder to the open candidates
    await setClock(25 * HOUR);
    expect(await runReminders()).toEqual({ early: 2, late: 0 });
    expect(await runReminders()).toEqual({ early: 0, late: 0 });
    const early = await waitForMail(both.email, EARLY);
    expect(early.subject).toBe("Reminder: your interview for Support engineer at mails company");
    expect(early.html).toContain("mails company");
    expect(early.html).toContain(deadlineText(t0 + 72 * HOUR));
    expect(early.html).not.toContain("already answered");
    expect(linksIn(early)).toContain(`${APP_URL}/candidates/${await keyOf(both.id)}`);
    const earlyStarted = await waitForMail(started.email, EARLY);
    expect(earlyStarted.html).toContain("You have already answered some of the questions");

    // 69 hours on: 3 hours left: the 4-hour reminder
    await setClock(69 * HOUR);
    expect(await runReminders()).toEqual({ early: 0, late: 2 });
    expect(await runReminders()).toEqual({ early: 0, late: 0 });
    await waitForMail(both.email, LATE);
    await waitForMail(started.email, LATE);

    // after the deadline: nothing more
    await setClock(73 * HOUR);
    expect(await runReminders()).toEqual({ early: 0, late: 0 });

    const reminders = async (address: string) => (await subjectsTo(address)).filter((s) => EARLY.test(s) || LATE.test(s));
    const sent = Object.fromEntries(await Promise.all(everyone.map(async (c) => [c.email, await reminders(c.email)])));
    const early48 = "Reminder: your interview for Support engineer at mails company";
    const late4 = "Your interview for Support engineer at mails company closes in a few hours";
    expect(sent).toEqual({
      [both.email]: [early48, late4],
      [started.email]: [early48, late4],
      [tenHours.email]: [late4],
      [threeHours.email]: [],
      [withdrawn.email]: [],
      [noDeadline.email]: [],
      [completed.email]: [],
    });
    // the stamps: when each was sent, on the server's clock
    const stored = await su.collection("candidates").getOne(both.id);
    expect(Date.parse(stored.remindedEarlyAt.replace(" ", "T"))).toBeGreaterThanOrEqual(t0 + 25 * HOUR);
    expect(Date.parse(stored.remindedLateAt.replace(" ", "T"))).toBeGreaterThanOrEqual(t0 + 69 * HOUR);
    expect((await su.collection("candidates").getOne(withdrawn.id)).remindedEarlyAt).toBe("");
  });

  it("goes again before a new deadline once the stamps are cleared, and not to a candidate who finished meanwhile", async () => {
    await setClock(0);
    const t0 = Date.now();
    const moved = await seed(w.job.id, "moved", { deadline: dbTime(t0 + 10 * HOUR) });
    const finished = await seed(w.job.id, "finished", { deadline: dbTime(t0 + 10 * HOUR) });
    await setClock(7 * HOUR);
    expect(await runReminders()).toEqual({ early: 0, late: 2 });
    // the candidate finishes; the other's deadline moves (the deadline rules clear the stamps when it moves later;
    // here a superuser does both, so this test depends on nothing but the reminders)
    await consent(finished.id);
    await answerVideo(finished.id, w.video.question.id);
    await answerText(finished.id, w.text.question.id);
    await su.collection("candidates").update(finished.id, { deadline: dbTime(t0 + 20 * HOUR), remindedLateAt: "" });
    await su.collection("candidates").update(moved.id, { deadline: dbTime(t0 + 20 * HOUR), remindedLateAt: "" });
    await setClock(17 * HOUR);
    expect(await runReminders()).toEqual({ early: 0, late: 1 });
    // the e-mails go through the mail queue: the second reminder arrives a moment after the run
    await expect.poll(async () => (await subjectsTo(moved.email)).filter((s) => LATE.test(s)).length, { timeout: 30_000 }).toBe(2);
    expect((await subjectsTo(finished.email)).filter((s) => LATE.test(s))).toHaveLength(1);
  });
});

describe("completion e-mails", () => {
  let optedIn: Awaited<ReturnType<typeof signUp>>;
  let optedOut: Awaited<ReturnType<typeof signUp>>;

  beforeAll(async () => {
    optedOut = await signUp({ email: uniqueEmail("opted-out") });
    optedIn = await signUp({ email: uniqueEmail("opted-in") });
    // managers in this order, so the opted-out one would be mailed before the last opted-in one
    await su.collection("companies").update(w.company.id, { "managers+": [optedOut.user.id, optedIn.user.id] });
    await optedOut.pb.collection("users").update(optedOut.user.id, { completionMailsOff: true });
  });

  const noticesTo = async (address: string, candidateEmail: string) =>
    (await mailsTo(address)).filter((m: Mail) => NOTICE.test(m.subject) && m.subject.startsWith(candidateEmail));

  it("the last answer sends one receipt and one notice per manager who wants them, and a later write nothing", async () => {
    const candidate = await seed(w.job.id, "finisher");
    await consent(candidate.id);
    await answerVideo(candidate.id, w.video.question.id);
    // a second candidate finishing later marks when every e-mail the first could have caused has arrived
    const sentinel = await seed(w.job.id, "sentinel");
    await consent(sentinel.id);
    await answerVideo(sentinel.id, w.video.question.id);
    await answerText(candidate.id, w.text.question.id);

    const receipt = await waitForMail(candidate.email, RECEIPT);
    expect(receipt.subject).toBe("We received your answers for Support engineer at mails company");
    expect(receipt.html).toContain("There is nothing else you need to do.");
    const managers = [w.manager.user, optedIn.user];
    for (const manager of managers) {
      const notice = await waitForMail(manager.email as string, new RegExp(`^${candidate.email.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
      expect(notice.subject).toBe(`${candidate.email} finished the interview for Support engineer`);
      expect(notice.html).toContain("mails company");
      expect(linksIn(notice)).toContain(`${APP_URL}/companies/${w.company.id}/jobs/${w.job.id}/candidates/${candidate.id}`);
      expect(linksIn(notice)).toContain(`${APP_URL}/preferences/profile`);
    }
    // the opted-out manager's would have gone before the last notice
    expect(await noticesTo(optedOut.user.email as string, candidate.email)).toHaveLength(0);
    expect((await su.collection("candidates").getOne(candidate.id)).completionMailedAt).not.toBe("");
    // sent through the mail queue (retried on an SMTP error, never waited on by the answer), each tied to the
    // candidate it names, so they go with the candidate's data
    const queued = await su.collection("mail_queue").getFullList({ filter: su.filter("candidate = {:c}", { c: candidate.id }) });
    const completion = queued.filter((m) => RECEIPT.test(m.subject as string) || NOTICE.test(m.subject as string));
    expect(completion.map((m) => m.to).sort()).toEqual([candidate.email, ...managers.map((m) => m.email as string)].sort());

    // later writes: an answer deleted and given again makes it completed again, a manager edits it: no more e-mails
    const answers = await su.collection("answers").getFullList({ filter: su.filter("candidate = {:c}", { c: candidate.id }) });
    const text = answers.find((a) => a.question === w.text.question.id)!;
    await w.manager.pb.collection("answers").delete(text.id);
    expect((await su.collection("candidates").getOne(candidate.id)).status).toBe("started");
    await answerText(candidate.id, w.text.question.id, "Again");
    expect((await su.collection("candidates").getOne(candidate.id)).status).toBe("completed");
    await w.manager.pb.collection("candidates").update(candidate.id, { extraTakes: 1 });
    // the sentinel finishes: once its e-mails are in, anything the writes above sent would be too
    await answerText(sentinel.id, w.text.question.id);
    await waitForMail(sentinel.email, RECEIPT);
    await waitForMail(optedIn.user.email as string, new RegExp(`^${sentinel.email.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));

    expect((await mailsTo(candidate.email)).filter((m) => RECEIPT.test(m.subject))).toHaveLength(1);
    for (const manager of managers) expect(await noticesTo(manager.email as string, candidate.email)).toHaveLength(1);
    expect(await noticesTo(optedOut.user.email as string, candidate.email)).toHaveLength(0);
    expect(await noticesTo(optedOut.user.email as string, sentinel.email)).toHaveLength(0);
  });

  it("a job whose last unanswered question is taken out completes its candidate: the same e-mails, once", async () => {
    const job = await createJob(w.manager.pb, w.company.id, [w.video.question.id, w.text.question.id]);
    const candidate = await seed(job.id, "question-removed");
    await consent(candidate.id);
    await answerVideo(candidate.id, w.video.question.id);
    await w.manager.pb.collection("jobs").update(job.id, { questions: [w.video.question.id] });
    expect((await su.collection("candidates").getOne(candidate.id)).status).toBe("completed");
    await waitForMail(candidate.email, RECEIPT);
    await waitForMail(optedIn.user.email as string, new RegExp(`^${candidate.email.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
    await w.manager.pb.collection("jobs").update(job.id, { title: "Support engineer II" });
    expect((await mailsTo(candidate.email)).filter((m) => RECEIPT.test(m.subject))).toHaveLength(1);
  });
});
