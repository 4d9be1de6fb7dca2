// Issue 17 points 5-8, as an attacker would try them: a candidate answers after its deadline, before agreeing, after
// a reload meant to give it a fresh timer or fresh takes, beyond the takes or time it was granted, or after its
// invitation was withdrawn; it grants itself time, takes or a later deadline; it or another company's manager guesses
// the new fields through filters. Every refusal is the server's, with its code (server/internal/interview/rules.go). On the
// shared server: time is "moved" by a superuser writing a past deadline or an earlier opening, never by its clock.
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
  deleteTake,
  errorOf,
  fixture,
  keyOf,
  postAnswer,
  putPart,
  randomId,
  superuser,
  uniqueEmail,
  webmFile,
  world,
} from "../helpers";
import { answersOf, listOutcome } from "../support";

let w: Awaited<ReturnType<typeof world>>;
let other: Awaited<ReturnType<typeof world>>;
let su: PocketBase;
const media = mkdtempSync(join(tmpdir(), "screenroom-attack-deadlines-"));

beforeAll(async () => {
  w = await world("attack-deadlines");
  other = await world("attack-deadlines-other");
  su = await superuser();
});
afterAll(() => rmSync(media, { recursive: true, force: true }));

const iso = (ms: number) => new Date(ms).toISOString().replace("T", " ");

async function candidateWith(fields: Record<string, unknown> = {}, agree = true) {
  const record = await w.manager.pb.collection("candidates").create({ job: w.job.id, email: uniqueEmail("attack-dl"), ...fields });
  if (agree) await consent(record.id);
  return record.id;
}

async function refusalOf(call: () => Promise<unknown>) {
  const err = await errorOf(call);
  return { status: err.status, code: (err.response.data as { interview?: { code?: string } })?.interview?.code };
}

const open = async (candidate: string, question: string) =>
  asCandidate(candidate).send<{ openedAt: string }>(`/api/screenroom/interviews/${await keyOf(candidate)}/questions/${question}/open`, { method: "POST" });
const text = (candidate: string) => postAnswer(asCandidate(candidate), { id: randomId(), question: w.text.question.id, content: "Late words." });
const video = (candidate: string, file: File = webmFile(), question = w.video.question.id) =>
  postAnswer(asCandidate(candidate), { id: randomId(), question, file });
const firstPart = (candidate: string, take = randomId()) =>
  putPart(asCandidate(candidate), take, 0, new Uint8Array(fixture("answer.webm")).subarray(0, 2000), w.video.question.id);

function webmOf(seconds: number) {
  const path = join(media, `${seconds}s-${randomId()}.webm`);
  execFileSync("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "color=c=black:s=64x48:r=5", "-t", String(seconds), "-c:v", "libvpx", "-b:v", "20k", path]);
  return new File([readFileSync(path)], "answer.webm", { type: "video/webm" });
}

describe("after the deadline", () => {
  it("nothing is taken: an answer (text, video), a take, an opening, consent; each refused deadline_passed", async () => {
    const candidate = await candidateWith();
    const unconsented = await candidateWith({}, false);
    for (const id of [candidate, unconsented]) await su.collection("candidates").update(id, { deadline: iso(Date.now() - 60_000) });
    const closed = { status: 403, code: "deadline_passed" };
    expect(await refusalOf(() => text(candidate))).toEqual(closed);
    expect(await refusalOf(() => video(candidate))).toEqual(closed);
    expect(await refusalOf(() => firstPart(candidate))).toEqual(closed);
    expect(await refusalOf(() => open(candidate, w.text.question.id))).toEqual(closed);
    expect(await refusalOf(() => consent(unconsented))).toEqual(closed);
    expect(await answersOf(candidate)).toBe(0);
  });

  it("the candidate cannot move its own deadline, nor clear it", async () => {
    const candidate = await candidateWith();
    await su.collection("candidates").update(candidate, { deadline: iso(Date.now() - 60_000) });
    for (const change of [{ deadline: iso(Date.now() + 86_400_000) }, { deadline: "" }, { withdrawn: false }]) {
      const err = await errorOf(() => asCandidate(candidate).collection("candidates").update(candidate, change));
      expect(err.status).toBe(404);
    }
    expect(await refusalOf(() => text(candidate))).toEqual({ status: 403, code: "deadline_passed" });
  });
});

describe("before consent", () => {
  it("no answer, take or opening is taken", async () => {
    const candidate = await candidateWith({}, false);
    for (const call of [() => text(candidate), () => video(candidate), () => firstPart(candidate), () => open(candidate, w.text.question.id)]) {
      expect((await errorOf(call)).status).toBe(403);
    }
    expect(await answersOf(candidate)).toBe(0);
  });
});

describe("a reload", () => {
  it("gives no fresh timer: the first opening stays, and a text answer after its time is refused time_over", async () => {
    const candidate = await candidateWith();
    const first = await open(candidate, w.text.question.id);
    // as if 60 s + 5 min and more had passed since the opening
    const row = await su.collection("question_progress").getFirstListItem(su.filter("candidate = {:c} && question = {:q}", { c: candidate, q: w.text.question.id }));
    const earlier = iso(Date.parse(first.openedAt.replace(" ", "T")) - 7 * 60_000);
    await su.collection("question_progress").update(row.id, { openedAt: earlier });
    // the reload opens again: the first opening is kept
    expect((await open(candidate, w.text.question.id)).openedAt).toBe(earlier);
    expect(await refusalOf(() => text(candidate))).toEqual({ status: 403, code: "time_over" });
    expect(await answersOf(candidate)).toBe(0);
  });

  it("gives no fresh takes: discarded takes and new take ids still count, up to the takes plus the extra ones", async () => {
    const candidate = await candidateWith({ extraTakes: 1 });
    for (let i = 0; i < 3; i++) {
      const take = randomId();
      await firstPart(candidate, take);
      await deleteTake(asCandidate(candidate), take);
    }
    for (const call of [() => firstPart(candidate), () => video(candidate)]) {
      const err = await errorOf(call);
      expect({ status: err.status, message: err.response.message }).toEqual({ status: 403, message: "You have used all your takes for this question." });
    }
    expect(await answersOf(candidate)).toBe(0);
  });
});

describe("beyond the time granted", () => {
  it("a video longer than the question's time (+ 3 s) is refused answer_too_long, and a grant the candidate writes itself is refused", async () => {
    const short = await createQuestion(w.manager.pb, w.company.id, "video", { timeout: 5 });
    await w.manager.pb.collection("jobs").update(w.job.id, { "questions+": [short.question.id] });
    try {
      const candidate = await candidateWith();
      for (const change of [{ extraTime: "unlimited" }, { extraTakes: 10 }]) {
        expect((await errorOf(() => asCandidate(candidate).collection("candidates").update(candidate, change))).status).toBe(404);
      }
      expect(await refusalOf(() => video(candidate, webmOf(12), short.question.id))).toEqual({ status: 403, code: "answer_too_long" });
      // another company's manager grants nothing either
      expect((await errorOf(() => other.manager.pb.collection("candidates").update(candidate, { extraTime: "unlimited" }))).status).toBe(404);
      expect(await refusalOf(() => video(candidate, webmOf(12), short.question.id))).toEqual({ status: 403, code: "answer_too_long" });
      expect(await answersOf(candidate)).toBe(0);
    } finally {
      await w.manager.pb.collection("jobs").update(w.job.id, { "questions-": [short.question.id] });
    }
  });
});

describe("a withdrawn invitation", () => {
  it("takes nothing more, whatever was under way, and the candidate cannot take the withdrawal back", async () => {
    const candidate = await candidateWith();
    const take = randomId();
    await firstPart(candidate, take);
    await open(candidate, w.text.question.id);
    await w.manager.pb.collection("candidates").update(candidate, { withdrawn: true });
    expect((await errorOf(() => asCandidate(candidate).collection("candidates").update(candidate, { withdrawn: false }))).status).toBe(404);
    const withdrawn = { status: 403, code: "withdrawn" };
    expect(await refusalOf(() => text(candidate))).toEqual(withdrawn);
    expect(await refusalOf(() => video(candidate))).toEqual(withdrawn);
    expect(await refusalOf(() => putPart(asCandidate(candidate), take, 2000, new Uint8Array(fixture("answer.webm")).subarray(2000), w.video.question.id))).toEqual(withdrawn);
    expect(
      await refusalOf(() =>
        asCandidate(candidate).send("/api/screenroom/answers", {
          method: "POST",
          body: { id: take, question: w.video.question.id, staged: true, size: 2000, fileName: "answer.webm" },
        }),
      ),
    ).toEqual(withdrawn);
    expect(await refusalOf(() => open(candidate, w.video.question.id))).toEqual(withdrawn);
    expect(await answersOf(candidate)).toBe(0);
  });
});

describe("the new fields through filters", () => {
  it("give the candidate and another company's manager identical answers to a true and a false guess", async () => {
    const candidate = await candidateWith({ extraTime: "2", extraTakes: 3, deadline: iso(Date.now() + 5 * 86_400_000) });
    await w.manager.pb.collection("candidates").update(candidate, { withdrawn: true });
    const guesses: [string, string, string][] = [
      ["candidates", `id = '${candidate}' && extraTime = '2'`, `id = '${candidate}' && extraTime = 'unlimited'`],
      ["candidates", `id = '${candidate}' && extraTakes >= 3`, `id = '${candidate}' && extraTakes >= 4`],
      ["candidates", `id = '${candidate}' && withdrawn = true`, `id = '${candidate}' && withdrawn = false`],
      ["candidates", `id = '${candidate}' && withdrawnAt != ''`, `id = '${candidate}' && withdrawnAt = ''`],
      ["candidates", `id = '${candidate}' && deadline > '2000-01-01'`, `id = '${candidate}' && deadline < '2000-01-01'`],
      ["jobs", `candidates_via_job.extraTime ?= '2'`, `candidates_via_job.extraTime ?= '1.5'`],
      ["answers", `candidate.extraTakes >= 3`, `candidate.extraTakes >= 4`],
      ["questions", `jobs_via_questions.candidates_via_job.withdrawn ?= true`, `jobs_via_questions.candidates_via_job.withdrawn ?= false`],
    ];
    for (const pb of [asCandidate(candidate), other.manager.pb]) {
      for (const [collection, truth, lie] of guesses) {
        const right = await listOutcome(pb, collection, { filter: truth });
        const wrong = await listOutcome(pb, collection, { filter: lie });
        expect({ collection, truth, right }).toEqual({ collection, truth, right: wrong });
      }
    }
    // and the candidate's own record, read with its key, does not carry its grant (its company's manager's does)
    const own = await asCandidate(candidate).collection("candidates").getOne(candidate);
    expect(Object.keys(own).filter((field) => field === "extraTime" || field === "extraTakes")).toEqual([]);
    expect((await w.manager.pb.collection("candidates").getOne(candidate)).extraTime).toBe("2");
  });
});
