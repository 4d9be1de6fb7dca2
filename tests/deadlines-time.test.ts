// Issue 17 points 5-8 on the server (server/internal/interview/rules.go): deadlines with their grace window, withdrawal, extra
// time and takes, the question's first opening (POST .../questions/{id}/open), text and video answers within their
// time, and the manager's writes of these fields. On the suite's own PocketBase: its clock is moved forward
// (POST /api/screenroom/test-clock), which the shared server's must never be.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type PocketBase from "pocketbase";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  asCandidate,
  consent,
  createQuestion,
  errorOf,
  fixture,
  keyOf,
  postAnswer,
  putPart,
  randomId,
  superuser,
  uniqueEmail,
  useOwnServer,
  world,
  type OwnServer,
} from "./helpers";

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

let server: OwnServer | undefined;
let w: Awaited<ReturnType<typeof world>>;
let offsetMs = 0;
const media = mkdtempSync(join(tmpdir(), "screenroom-deadlines-"));

beforeAll(async () => {
  server = await useOwnServer();
  w = await world("deadlines");
});
afterAll(async () => {
  await server?.stop();
  rmSync(media, { recursive: true, force: true });
});

/** Moves the own server's clock `ms` further forward (never back: what a test did before stays in the past). */
async function advance(ms: number) {
  offsetMs += ms;
  const su = await superuser();
  return su.send<{ now: string }>("/api/screenroom/test-clock", { method: "POST", body: { offsetMs } });
}

/** The server's now, in ms (its own clock). */
async function serverNow() {
  const su = await superuser();
  const { now } = await su.send<{ now: string }>("/api/screenroom/test-clock", { method: "POST", body: { offsetMs } });
  return Date.parse(now.replace(" ", "T"));
}

const iso = (ms: number) => new Date(ms).toISOString().replace("T", " ");

/** A new candidate of the world's job with the given fields (as its manager sets them), who agreed. */
async function candidateWith(fields: Record<string, unknown> = {}, agree = true) {
  const record = await w.manager.pb.collection("candidates").create({ job: w.job.id, email: uniqueEmail("dl"), ...fields });
  if (agree) await consent(record.id);
  return record.id;
}

interface Interview {
  serverNow: string;
  deadline: string;
  closed: null | { reason: string; at: string };
  questions: { id: string; kind: string; timeout: number; untimed: boolean; preparation: number; takes: number; openedAt: string }[];
  companyName: string;
  jobTitle: string;
}

async function interview(candidate: string) {
  const key = (await keyOf(candidate))!;
  return asCandidate(candidate).send<Interview>(`/api/screenroom/interviews/${key}`, {});
}

async function open(candidate: string, question: string, pb: PocketBase = asCandidate(candidate)) {
  const key = (await keyOf(candidate)) ?? candidate;
  return pb.send<{ openedAt: string; serverNow: string }>(`/api/screenroom/interviews/${key}/questions/${question}/open`, { method: "POST" });
}

/** A webm of `seconds` seconds (tiny: 64x48 at 5 fps), made with ffmpeg from Debian. */
function webmOf(seconds: number) {
  const path = join(media, `${seconds}s-${randomId()}.webm`);
  execFileSync("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "color=c=black:s=64x48:r=5", "-t", String(seconds), "-c:v", "libvpx", "-b:v", "20k", path]);
  return new File([readFileSync(path)], "answer.webm", { type: "video/webm" });
}

/** The refusal's status and code (data.interview.code) of a call that must fail. */
async function refusalOf(call: () => Promise<unknown>) {
  const err = await errorOf(call);
  return { status: err.status, code: (err.response.data as { interview?: { code?: string } })?.interview?.code, message: err.response.message };
}

const text = (candidate: string, question = w.text.question.id, id = randomId()) =>
  postAnswer(asCandidate(candidate), { id, question, content: "My answer." });
const video = (candidate: string, file: File, question = w.video.question.id, id = randomId()) =>
  postAnswer(asCandidate(candidate), { id, question, file });
const firstPart = (candidate: string, take: string, question = w.video.question.id) =>
  putPart(asCandidate(candidate), take, 0, new Uint8Array(fixture("answer.webm")).subarray(0, 4000), question);

describe("the interview's times and takes", () => {
  it("are the candidate's own: extra time × 1.5 or × 2 rounded up, unlimited without a countdown, extra takes added", async () => {
    await w.manager.pb.collection("questions").update(w.text.question.id, { timeout: 45 });
    const cases = [
      [{}, { videoTimeout: 60, textTimeout: 45, untimed: false, preparation: 30, takes: 2 }],
      [{ extraTime: "1.5", extraTakes: 1 }, { videoTimeout: 90, textTimeout: 68, untimed: false, preparation: 45, takes: 3 }],
      [{ extraTime: "2" }, { videoTimeout: 120, textTimeout: 90, untimed: false, preparation: 60, takes: 2 }],
      [{ extraTime: "unlimited", extraTakes: 10 }, { videoTimeout: 60, textTimeout: 45, untimed: true, preparation: 30, takes: 12 }],
    ] as const;
    for (const [fields, expected] of cases) {
      const seen = await interview(await candidateWith(fields));
      const videoQ = seen.questions.find((q) => q.kind === "video")!;
      const textQ = seen.questions.find((q) => q.kind === "text")!;
      expect({ fields, ...{ videoTimeout: videoQ.timeout, textTimeout: textQ.timeout, untimed: videoQ.untimed, preparation: videoQ.preparation, takes: videoQ.takes } }).toEqual({ fields, ...expected });
      expect({ untimed: textQ.untimed, preparation: textQ.preparation, takes: textQ.takes }).toEqual({ untimed: expected.untimed, preparation: 0, takes: 1 });
    }
    await w.manager.pb.collection("questions").update(w.text.question.id, { timeout: 60 });
  });

  it("do not show the grant on the candidate's own record", async () => {
    const candidate = await candidateWith({ extraTime: "2", extraTakes: 3 });
    const own = await asCandidate(candidate).collection("candidates").getOne(candidate);
    expect(own).not.toHaveProperty("extraTime");
    expect(own).not.toHaveProperty("extraTakes");
    const managed = await w.manager.pb.collection("candidates").getOne(candidate);
    expect({ extraTime: managed.extraTime, extraTakes: managed.extraTakes }).toEqual({ extraTime: "2", extraTakes: 3 });
  });

  it("give a video question created without a preparation 30 seconds, and keep one sent (0 included)", async () => {
    const plain = await createQuestion(w.manager.pb, w.company.id, "video");
    expect(plain.kindRecord.preparation).toBe(30);
    const question = await w.manager.pb.collection("questions").create({ company: w.company.id, title: "Read at once", description: "No preparation", timeout: 30, canPreview: true });
    const none = await w.manager.pb.collection("video_questions").create({ question: question.id, takes: 1, preparation: 0 });
    expect(none.preparation).toBe(0);
  });

  it("count extra takes: the question's takes plus the candidate's extraTakes start, the next is refused", async () => {
    const candidate = await candidateWith({ extraTakes: 1 });
    for (let i = 0; i < 3; i++) await firstPart(candidate, randomId());
    const err = await errorOf(() => firstPart(candidate, randomId()));
    expect({ status: err.status, message: err.response.message }).toEqual({ status: 403, message: "You have used all your takes for this question." });
    expect((await interview(candidate)).questions.find((q) => q.kind === "video")).toMatchObject({ takes: 3, takesUsed: 3 });
  });
});

describe("opening a question", () => {
  it("records the first opening on the server's clock; a second call (a reload) keeps it", async () => {
    const candidate = await candidateWith();
    expect((await interview(candidate)).questions.every((q) => q.openedAt === "")).toBe(true);
    const first = await open(candidate, w.text.question.id);
    expect(first.openedAt).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(Date.parse(first.serverNow.replace(" ", "T"))).toBeGreaterThanOrEqual(Date.parse(first.openedAt.replace(" ", "T")));
    await advance(20_000);
    const again = await open(candidate, w.text.question.id);
    expect(again.openedAt).toBe(first.openedAt);
    expect(Date.parse(again.serverNow.replace(" ", "T")) - Date.parse(again.openedAt.replace(" ", "T"))).toBeGreaterThanOrEqual(20_000);
    const seen = await interview(candidate);
    expect(seen.questions.find((q) => q.id === w.text.question.id)!.openedAt).toBe(first.openedAt);
    expect(seen.questions.find((q) => q.id === w.video.question.id)!.openedAt).toBe("");
  });

  it("answers 404 for a question not of the candidate's job, an unknown one, and without the key; 403 before consent", async () => {
    const candidate = await candidateWith();
    const other = await createQuestion(w.manager.pb, w.company.id, "text"); // same company, not in the job
    for (const question of [other.question.id, randomId(), "x"]) {
      const err = await errorOf(() => open(candidate, question));
      expect({ question, status: err.status, message: err.response.message }).toEqual({ question, status: 404, message: "This interview link is not valid." });
    }
    const err = await errorOf(() => open(candidate, w.text.question.id, asCandidate(randomId())));
    expect(err.status).toBe(404);
    const waiting = await candidateWith({}, false);
    const refused = await errorOf(() => open(waiting, w.text.question.id));
    expect(refused.status).toBe(403);
  });
});

describe("a text answer's time", () => {
  it("is refused (time_over) later than its opening + its time + 5 minutes; with extra time or unlimited it is not", async () => {
    const plain = await candidateWith();
    const doubled = await candidateWith({ extraTime: "2" });
    const unlimited = await candidateWith({ extraTime: "unlimited" });
    const never = await candidateWith();
    for (const candidate of [plain, doubled, unlimited]) await open(candidate, w.text.question.id);
    // 60 s + 5 min later and a bit: over for the plain candidate, within 120 s + 5 min for the doubled one
    await advance(60_000 + 5 * 60_000 + 15_000);
    expect(await refusalOf(() => text(plain))).toEqual({ status: 403, code: "time_over", message: "The time to answer this question is over." });
    await text(doubled);
    await text(unlimited);
    // never opened: judged from its arrival
    await text(never);
  });
});

describe("a video answer's length", () => {
  it("is refused (answer_too_long) over its time + 3 s, whole file or staged; extra time and unlimited allow more", async () => {
    const short = await createQuestion(w.manager.pb, w.company.id, "video", { timeout: 5 });
    await w.manager.pb.collection("jobs").update(w.job.id, { "questions+": [short.question.id] });
    const [plain, doubled, unlimited, staged] = [await candidateWith(), await candidateWith({ extraTime: "2" }), await candidateWith({ extraTime: "unlimited" }), await candidateWith()];
    const ten = webmOf(10);
    expect(await refusalOf(() => video(plain, ten, short.question.id))).toEqual({ status: 403, code: "answer_too_long", message: "This answer is longer than the time allowed." });
    // the refusal stored nothing
    const su = await superuser();
    expect(await su.collection("answers").getFullList({ filter: su.filter("candidate = {:c}", { c: plain }) })).toEqual([]);
    await video(plain, webmOf(7), short.question.id); // within 5 + 3 s
    await video(doubled, ten, short.question.id); // within 10 + 3 s
    await video(unlimited, webmOf(20), short.question.id);

    const bytes = new Uint8Array(await ten.arrayBuffer());
    const take = randomId();
    await putPart(asCandidate(staged), take, 0, bytes, short.question.id, { last: "1" });
    const submit = () =>
      asCandidate(staged).send("/api/screenroom/answers", { method: "POST", body: { id: take, question: short.question.id, staged: true, size: bytes.length, fileName: "answer.webm" } });
    expect(await refusalOf(submit)).toMatchObject({ status: 403, code: "answer_too_long" });
    await w.manager.pb.collection("jobs").update(w.job.id, { "questions-": [short.question.id] });
  });
});

describe("the deadline", () => {
  it("is refused in the past, accepted in the future, set from the job's responseDays, and moved later clears the reminders", async () => {
    const now = await serverNow();
    const err = await errorOf(() => w.manager.pb.collection("candidates").create({ job: w.job.id, email: uniqueEmail("dl-past"), deadline: iso(now - HOUR) }));
    expect({ status: err.status, field: err.response.data.deadline?.message }).toEqual({ status: 400, field: "The deadline must be in the future." });
    const candidate = await candidateWith({ deadline: iso(now + DAY) });
    const past = await errorOf(() => w.manager.pb.collection("candidates").update(candidate, { deadline: iso(now - 1000) }));
    expect(past.response.data.deadline?.message).toBe("The deadline must be in the future.");

    await w.manager.pb.collection("jobs").update(w.job.id, { responseDays: 3 });
    const defaulted = await w.manager.pb.collection("candidates").create({ job: w.job.id, email: uniqueEmail("dl-default") });
    const expected = (await serverNow()) + 3 * DAY;
    expect(Math.abs(Date.parse(defaulted.deadline.replace(" ", "T")) - expected)).toBeLessThan(60_000);
    const own = await w.manager.pb.collection("candidates").create({ job: w.job.id, email: uniqueEmail("dl-own"), deadline: iso(now + 10 * DAY) });
    expect(own.deadline).toBe(iso(now + 10 * DAY));
    await w.manager.pb.collection("jobs").update(w.job.id, { responseDays: 0 });
    const none = await w.manager.pb.collection("candidates").create({ job: w.job.id, email: uniqueEmail("dl-none") });
    expect(none.deadline).toBe("");

    const su = await superuser();
    await su.collection("candidates").update(candidate, { remindedEarlyAt: iso(now), remindedLateAt: iso(now) });
    // moved earlier (still in the future): the stamps stay
    await w.manager.pb.collection("candidates").update(candidate, { deadline: iso(now + 20 * HOUR) });
    expect(await su.collection("candidates").getOne(candidate)).toMatchObject({ remindedEarlyAt: iso(now), remindedLateAt: iso(now) });
    await w.manager.pb.collection("candidates").update(candidate, { deadline: iso(now + 5 * DAY) });
    expect(await su.collection("candidates").getOne(candidate)).toMatchObject({ remindedEarlyAt: "", remindedLateAt: "" });
  });

  it("closes the interview at the deadline; what started before it is taken for 24 hours more, nothing new", async () => {
    const now = await serverNow();
    const deadline = now + HOUR;
    const candidate = await candidateWith({ deadline: iso(deadline), extraTime: "unlimited" });
    const late = await candidateWith({ deadline: iso(deadline) }, false);
    // never opened (an older client), its take staged before the deadline: the whole file is its fallback
    const fallback = await candidateWith({ deadline: iso(deadline) });
    const fallbackTake = randomId();
    await firstPart(fallback, fallbackTake);
    const take = randomId();
    await firstPart(candidate, take);
    await open(candidate, w.text.question.id);
    expect((await interview(candidate)).closed).toBeNull();

    await advance(2 * HOUR);
    const seen = await interview(candidate);
    expect({ closed: seen.closed, questions: seen.questions, deadline: seen.deadline, company: seen.companyName }).toEqual({
      closed: { reason: "deadline", at: iso(deadline) },
      questions: [],
      deadline: iso(deadline),
      company: w.company.name,
    });
    const day = new Date(deadline);
    const months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
    const closedMessage = `This interview closed on ${day.getUTCDate()} ${months[day.getUTCMonth()]} ${day.getUTCFullYear()}.`;
    const closedRefusal = { status: 403, code: "deadline_passed", message: closedMessage };
    // nothing new: consent, an opening, a new take, an answer to a question never opened
    expect(await refusalOf(() => consent(late))).toEqual(closedRefusal);
    expect(await refusalOf(() => firstPart(candidate, randomId()))).toEqual(closedRefusal);
    // a deadline in the server's past (though ahead of the real clock) is refused to the manager too
    const stale = await errorOf(() => candidateWith({ deadline: iso(now + 90 * 60_000) }, false));
    expect(stale.response.data.deadline?.message).toBe("The deadline must be in the future.");
    // what was under way: the take's next part and its submit, the text of the question opened before
    const rest = new Uint8Array(fixture("answer.webm")).subarray(4000);
    await putPart(asCandidate(candidate), take, 4000, rest, w.video.question.id, { last: "1" });
    await asCandidate(candidate).send("/api/screenroom/answers", {
      method: "POST",
      body: { id: take, question: w.video.question.id, staged: true, size: fixture("answer.webm").length, fileName: "answer.webm" },
    });
    await text(candidate);
    // a whole file under a new id is a new take: refused; under the staged take's id it is that take
    expect(await refusalOf(() => video(fallback, webmOf(2)))).toEqual(closedRefusal);
    await video(fallback, webmOf(2), w.video.question.id, fallbackTake);
  });

  it("refuses what was under way once the 24 hours after the deadline are over", async () => {
    const now = await serverNow();
    const deadline = now + HOUR;
    const candidate = await candidateWith({ deadline: iso(deadline), extraTime: "unlimited" });
    await open(candidate, w.text.question.id);
    const take = randomId();
    await firstPart(candidate, take);
    await advance(HOUR + DAY + 60_000);
    expect(await refusalOf(() => text(candidate))).toMatchObject({ status: 403, code: "deadline_passed" });
    expect(await refusalOf(() => putPart(asCandidate(candidate), take, 4000, new Uint8Array(fixture("answer.webm")).subarray(4000), w.video.question.id))).toMatchObject({
      status: 403,
      code: "deadline_passed",
    });
    expect(await refusalOf(() => open(candidate, w.text.question.id))).toMatchObject({ status: 403, code: "deadline_passed" });
  });
});

describe("a withdrawn invitation", () => {
  it("is stamped by the server, closes everything at once (no grace), and reopens when un-withdrawn", async () => {
    const candidate = await candidateWith();
    const take = randomId();
    await firstPart(candidate, take);
    await open(candidate, w.text.question.id);
    const withdrawn = await w.manager.pb.collection("candidates").update(candidate, { withdrawn: true });
    expect(withdrawn.withdrawnAt).toMatch(/^\d{4}-/);
    expect((await interview(candidate)).closed).toEqual({ reason: "withdrawn", at: withdrawn.withdrawnAt });
    const refusal = { status: 403, code: "withdrawn", message: "This invitation was withdrawn." };
    expect(await refusalOf(() => text(candidate))).toEqual(refusal);
    expect(await refusalOf(() => video(candidate, webmOf(2)))).toEqual(refusal);
    expect(await refusalOf(() => putPart(asCandidate(candidate), take, 4000, new Uint8Array(fixture("answer.webm")).subarray(4000), w.video.question.id))).toEqual(refusal);
    expect(await refusalOf(() => open(candidate, w.video.question.id))).toEqual(refusal);
    expect(await refusalOf(() => consent(candidate))).toEqual(refusal);

    const back = await w.manager.pb.collection("candidates").update(candidate, { withdrawn: false });
    expect(back.withdrawnAt).toBe("");
    expect((await interview(candidate)).closed).toBeNull();
    await text(candidate);
  });
});

describe("staged takes' retention", () => {
  it("follows the candidate's deadline (+ 24 h), and 30 days without one", async () => {
    const now = await serverNow();
    const su = await superuser();
    const withDeadline = await candidateWith({ deadline: iso(now + 40 * DAY) });
    const without = await candidateWith();
    const [a, b] = [randomId(), randomId()];
    await firstPart(withDeadline, a);
    await firstPart(without, b);
    const rowOf = async (take: string) => (await su.collection("staged_takes").getFullList({ filter: su.filter("take = {:t}", { t: take }) }))[0] ?? null;
    const sweep = async () => {
      await su.crons.run("screenroomStaleTakes");
    };
    // 31 days: the take without a deadline is gone, the one whose deadline is ahead stays
    await advance(31 * DAY);
    await sweep();
    await expect.poll(() => rowOf(b), { timeout: 30_000 }).toBeNull();
    expect(await rowOf(a)).not.toBeNull();
    // past the deadline + 24 h: gone
    await advance(10 * DAY);
    await sweep();
    await expect.poll(() => rowOf(a), { timeout: 30_000 }).toBeNull();
  });
});
