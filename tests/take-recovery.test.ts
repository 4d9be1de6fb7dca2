// Crash recovery (issue 22) and takes counted by the server (decisions.md "Takes and time"), on the real stack:
// the interview route tells the candidate's device which take the server keeps for each unanswered video question
// (a finished take never submitted, or one cut off mid-recording) and how many takes were used; GET
// /api/screenroom/takes/{id} and its parts give that take back to its own candidate only (another device); a take
// counts once the server has its first part or its whole file, and a recovered take submitted counts nothing new.
import type PocketBase from "pocketbase";
import { beforeAll, describe, expect, it } from "vitest";
import { anonymous, asCandidate, asCandidateKey, deleteTake, errorOf, fixture, keyOf, newCandidateOf, postAnswer, putPart, randomId, statusOf, webmFile, world } from "./helpers";
import { answersOf } from "./support";

let w: Awaited<ReturnType<typeof world>>;
beforeAll(async () => {
  w = await world("recovery");
});

const webm = () => new Uint8Array(fixture("answer.webm"));
const NO_TAKES_LEFT = { status: 403, message: "You have used all your takes for this question.", data: {} };
const NOT_FOUND = { status: 404, message: "The take was not found.", data: {} };

type Kept = { id: string; bytes: number; recordedMs: number; finished: boolean; savedAt: string } | null;
type Interview = { questions: { id: string; takesUsed: number; keptTake: Kept }[] };

async function interviewOf(candidate: string) {
  const key = (await keyOf(candidate))!;
  const res = await asCandidateKey(key).send<Interview>(`/api/screenroom/interviews/${key}`, {});
  return res.questions.find((q) => q.id === w.video.question.id)!;
}

const takeOf = (pb: PocketBase, id: string) =>
  pb.send<{ id: string; question: string; bytes: number; parts: { offset: number; size: number }[]; recordedMs: number; finished: boolean }>(
    `/api/screenroom/takes/${id}`,
    {},
  );

async function partBytes(pb: PocketBase, id: string, offset: number): Promise<Buffer> {
  const res = await fetch(pb.buildURL(`/api/screenroom/takes/${id}/parts/${offset}`), { headers: pb.beforeSend ? await headersOf(pb) : {} });
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

/** The headers a candidate client sends (asCandidate presents the key in beforeSend). */
async function headersOf(pb: PocketBase): Promise<Record<string, string>> {
  const sent = await pb.beforeSend!("", { headers: {} });
  return (sent?.options?.headers ?? {}) as Record<string, string>;
}

function submitStaged(pb: PocketBase, id: string, size: number) {
  return pb.send("/api/screenroom/answers", { method: "POST", body: { id, staged: true, size, fileName: "answer.webm", question: w.video.question.id } });
}

describe("the take the server keeps for a candidate", () => {
  it("a finished take never submitted is offered with its length and counted once; submitting it uses no new take", async () => {
    const candidate = await newCandidateOf(w, "kept-finished");
    const pb = asCandidate(candidate);
    const bytes = webm();
    const id = randomId();
    expect(await interviewOf(candidate)).toMatchObject({ takesUsed: 0, keptTake: null });
    await putPart(pb, id, 0, bytes.subarray(0, 5000), w.video.question.id, { ms: "1000" });
    await putPart(pb, id, 5000, bytes.subarray(5000), w.video.question.id, { ms: "2400", last: "1" });

    // a reload (the same request again) gives the same count and the same take back
    for (let i = 0; i < 2; i++) {
      expect(await interviewOf(candidate)).toMatchObject({
        takesUsed: 1,
        keptTake: { id, bytes: bytes.length, recordedMs: 2400, finished: true },
      });
    }
    await submitStaged(pb, id, bytes.length);
    expect(await answersOf(candidate)).toBe(1);
  });

  it("a take cut off mid-recording is offered with what reached the server, contiguous from 0, as not finished", async () => {
    const candidate = await newCandidateOf(w, "kept-interrupted");
    const pb = asCandidate(candidate);
    const bytes = webm();
    const id = randomId();
    await putPart(pb, id, 0, bytes.subarray(0, 3000), w.video.question.id, { ms: "1000" });
    await putPart(pb, id, 3000, bytes.subarray(3000, 6000), w.video.question.id, { ms: "2000" });
    // a later part that arrived without the one before it (the browser died in between) is not part of the take
    await putPart(pb, id, 9000, bytes.subarray(9000, 10000), w.video.question.id, { ms: "4000" });
    expect(await interviewOf(candidate)).toMatchObject({ takesUsed: 1, keptTake: { id, bytes: 6000, recordedMs: 4000, finished: false } });

    const take = await takeOf(pb, id);
    expect(take).toMatchObject({ id, question: w.video.question.id, bytes: 6000, finished: false });
    expect(take.parts).toEqual([
      { offset: 0, size: 3000 },
      { offset: 3000, size: 3000 },
    ]);
    // another device reads the bytes back and submits what the server has: exactly those bytes are stored
    const joined = Buffer.concat([await partBytes(pb, id, 0), await partBytes(pb, id, 3000)]);
    expect(joined.equals(Buffer.from(bytes.subarray(0, 6000)))).toBe(true);
    await submitStaged(pb, id, 6000);
    expect(await answersOf(candidate)).toBe(1);
    expect(await statusOf(() => takeOf(pb, id))).toBe(404);
  });

  it("a malformed recorded length is refused (400)", async () => {
    const pb = asCandidate(await newCandidateOf(w, "kept-bad-ms"));
    for (const ms of ["-1", "1.5", "abc"]) {
      expect(await statusOf(() => putPart(pb, randomId(), 0, webm().subarray(0, 100), w.video.question.id, { ms }))).toBe(400);
    }
  });
});

describe("takes counted by the server", () => {
  it("a question's takes run out: a third take's first part and a whole file under a new id are refused (403)", async () => {
    const candidate = await newCandidateOf(w, "count-limit");
    const pb = asCandidate(candidate);
    const [first, second, third] = [randomId(), randomId(), randomId()];
    await putPart(pb, first, 0, webm().subarray(0, 1000), w.video.question.id);
    await putPart(pb, second, 0, webm().subarray(0, 1000), w.video.question.id);
    expect((await interviewOf(candidate)).takesUsed).toBe(2);

    expect((await errorOf(() => putPart(pb, third, 0, webm().subarray(0, 1000), w.video.question.id))).response).toEqual(NO_TAKES_LEFT);
    const whole = await errorOf(() => postAnswer(pb, { id: third, question: w.video.question.id, file: webmFile() }));
    expect(whole.status).toBe(403);
    expect(await answersOf(candidate)).toBe(0);
    // the kept (second) take is still there to submit, and counts nothing new
    expect((await interviewOf(candidate)).keptTake).toMatchObject({ id: second, bytes: 1000 });
    expect((await interviewOf(candidate)).takesUsed).toBe(2);
  });

  it("a whole file under the id of a take already staged counts nothing new; one never staged counts a take", async () => {
    const candidate = await newCandidateOf(w, "count-whole");
    const pb = asCandidate(candidate);
    const staged = randomId();
    await putPart(pb, staged, 0, webm().subarray(0, 1000), w.video.question.id);
    await deleteTake(pb, staged); // the client's fallback: parts withdrawn, the whole file sent under the same id
    await postAnswer(pb, { id: staged, question: w.video.question.id, file: webmFile() });
    expect(await answersOf(candidate)).toBe(1);

    const other = await newCandidateOf(w, "count-whole-new");
    await postAnswer(asCandidate(other), { id: randomId(), question: w.video.question.id, file: webmFile() });
    expect(await answersOf(other)).toBe(1);
  });
});

describe("reading a kept take back: its own candidate only", () => {
  let id: string;
  let candidate: string;
  beforeAll(async () => {
    candidate = await newCandidateOf(w, "read-own");
    id = randomId();
    await putPart(asCandidate(candidate), id, 0, webm().subarray(0, 2000), w.video.question.id);
  });

  it("its candidate reads it (200)", async () => {
    expect(await takeOf(asCandidate(candidate), id)).toMatchObject({ id, bytes: 2000 });
    expect((await partBytes(asCandidate(candidate), id, 0)).length).toBe(2000);
  });

  it.each([
    ["another candidate of the same job", async () => asCandidate(await newCandidateOf(w, "read-other"))],
    ["the job's manager", async () => w.manager.pb],
    ["anonymous", async () => anonymous()],
    ["a key that is no candidate's", async () => asCandidateKey("k".repeat(40))],
  ])("%s gets the same 404 as for a take that does not exist", async (_who, who) => {
    const pb = await who();
    expect((await errorOf(() => takeOf(pb, id))).response).toEqual(NOT_FOUND);
    expect((await errorOf(() => takeOf(pb, randomId()))).response).toEqual(NOT_FOUND);
    expect((await errorOf(() => pb.send(`/api/screenroom/takes/${id}/parts/0`, {}))).status).toBe(404);
  });

  it("a part that is not the take's (or not contiguous from 0) is 404", async () => {
    const pb = asCandidate(candidate);
    for (const offset of ["1", "2000", "../0", "abc"]) expect(await statusOf(() => pb.send(`/api/screenroom/takes/${id}/parts/${offset}`, {}))).toBe(404);
  });

  it("a retired take (replaced by a newer one, or discarded) is 404", async () => {
    const owner = await newCandidateOf(w, "read-retired");
    const pb = asCandidate(owner);
    const [older, newer] = [randomId(), randomId()];
    await putPart(pb, older, 0, webm().subarray(0, 1000), w.video.question.id);
    await putPart(pb, newer, 0, webm().subarray(0, 1000), w.video.question.id);
    expect(await statusOf(() => takeOf(pb, older))).toBe(404);
    await deleteTake(pb, newer);
    expect(await statusOf(() => takeOf(pb, newer))).toBe(404);
    expect((await interviewOf(owner)).keptTake).toBeNull();
  });
});
