// The candidate's device keeps each confirmed answer for a day, and a reopened link sends again what a restore of
// the server lost (server/internal/interview/kept_answers.go, docs/decisions/device-keeps-confirmed-answers.md): the
// route that says which kept answers the server lacks, and the answers route taking a lost answer back with its
// receipt. A restore's loss is played by a superuser deleting the answer, as if it had never been written. On the
// suite's own PocketBase: its clock is moved forward (the test clock).
import type { RecordModel } from "pocketbase";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  asCandidate,
  errorOf,
  keyOf,
  postAnswer,
  randomId,
  superuser,
  uniqueEmail,
  useOwnServer,
  webmFile,
  world,
  consent,
  type OwnServer,
} from "./helpers";

type Stored = { answer: RecordModel; kind: string; record: RecordModel; receipt: string };

let server: OwnServer | undefined;
let w: Awaited<ReturnType<typeof world>>;
let offsetMs = 0;

beforeAll(async () => {
  server = await useOwnServer();
  w = await world("kept-answers");
});
afterAll(async () => {
  await server?.stop();
});

async function advance(ms: number) {
  offsetMs += ms;
  const su = await superuser();
  await su.send("/api/screenroom/test-clock", { method: "POST", body: { offsetMs } });
}

async function candidateWith(fields: Record<string, unknown> = {}) {
  const record = await w.manager.pb.collection("candidates").create({ job: w.job.id, email: uniqueEmail("kept"), ...fields });
  await consent(record.id);
  return record.id;
}

const store = (candidate: string, fields: Record<string, string | Blob>) =>
  postAnswer(asCandidate(candidate), fields) as Promise<Stored>;

async function kept(candidate: string, answers: { id: string; question: string }[]) {
  const key = (await keyOf(candidate))!;
  return asCandidate(candidate).send<{ missing: string[] }>(`/api/screenroom/interviews/${key}/kept-answers`, { method: "POST", body: { answers } });
}

async function open(candidate: string, question: string) {
  const key = (await keyOf(candidate))!;
  await asCandidate(candidate).send(`/api/screenroom/interviews/${key}/questions/${question}/open`, { method: "POST" });
}

/** What a restore from the replica does to the answers written in its last second: they were never there. */
async function loseInRestore(answerId: string) {
  const su = await superuser();
  await su.collection("answers").delete(answerId);
}

async function refusalOf(call: () => Promise<unknown>) {
  const err = await errorOf(call);
  return { status: err.status, code: (err.response.data as { interview?: { code?: string } })?.interview?.code };
}

async function storedVideoBytes(answerId: string): Promise<Buffer> {
  const su = await superuser();
  const kind = await su.collection("video_answers").getFirstListItem(`answer = "${answerId}"`);
  const token = await su.files.getToken();
  const response = await fetch(su.files.getURL(kind, kind.file as string, { token }));
  expect(response.status).toBe(200);
  return Buffer.from(await response.arrayBuffer());
}

describe("which kept answers the server lost", () => {
  it("are the candidate's own questions with no answer, whatever the kept ids, and nothing else", async () => {
    const candidate = await candidateWith();
    const videoAnswer = await store(candidate, { id: randomId(), question: w.video.question.id, file: webmFile() });
    const textAnswer = await store(candidate, { id: randomId(), question: w.text.question.id, content: "Kept." });
    expect(videoAnswer.receipt).toMatch(/^v1\.\d+\.[\w-]{43}$/);
    expect(textAnswer.receipt).toMatch(/^v1\.\d+\.[\w-]{43}$/);
    const asked = [
      { id: videoAnswer.answer.id, question: w.video.question.id },
      { id: textAnswer.answer.id, question: w.text.question.id },
    ];
    expect(await kept(candidate, asked)).toEqual({ missing: [] });

    await loseInRestore(videoAnswer.answer.id);
    const other = await world("kept-answers-other");
    expect(
      await kept(candidate, [
        ...asked,
        // another job's question, and ids the server never had or of no record's shape
        { id: randomId(), question: other.video.question.id },
        { id: "not-an-id", question: w.video.question.id },
        { id: videoAnswer.answer.id, question: w.video.question.id },
      ]),
    ).toEqual({ missing: [videoAnswer.answer.id] });
  });

  it("come back through the answers route with their receipt, the video with its very bytes", async () => {
    const candidate = await candidateWith();
    const file = webmFile();
    const first = await store(candidate, { id: randomId(), question: w.video.question.id, file });
    await loseInRestore(first.answer.id);

    const again = await store(candidate, { id: first.answer.id, question: w.video.question.id, file: webmFile(), receipt: first.receipt });
    expect(again.answer.id).toBe(first.answer.id);
    expect(again.receipt).toMatch(/^v1\./);
    expect(await storedVideoBytes(first.answer.id)).toEqual(Buffer.from(await file.arrayBuffer()));
    expect(await kept(candidate, [{ id: first.answer.id, question: w.video.question.id }])).toEqual({ missing: [] });
  });

  it("are not judged again by their question's time or takes when the receipt holds, and are without it", async () => {
    // one take only: the lost answer's take was counted, and the count survived the restore
    await w.manager.pb.collection("video_questions").update(w.video.kindRecord.id, { takes: 1 });
    const candidate = await candidateWith();
    await open(candidate, w.text.question.id);
    const text = await store(candidate, { id: randomId(), question: w.text.question.id, content: "Written in time." });
    const video = await store(candidate, { id: randomId(), question: w.video.question.id, file: webmFile() });
    await loseInRestore(text.answer.id);
    await loseInRestore(video.answer.id);
    // the link reopened after the text's time + 5 minutes
    await advance(60_000 + 5 * 60_000 + 30_000);

    const textAgain = (fields: Record<string, string>) => store(candidate, { id: text.answer.id, question: w.text.question.id, content: "Written in time.", ...fields });
    expect(await refusalOf(() => textAgain({}))).toEqual({ status: 403, code: "time_over" });
    // another answer's receipt, or this one's with the text changed, holds for nothing
    expect(await refusalOf(() => textAgain({ receipt: video.receipt }))).toEqual({ status: 403, code: "time_over" });
    expect(await refusalOf(() => store(candidate, { id: text.answer.id, question: w.text.question.id, content: "Rewritten later.", receipt: text.receipt }))).toEqual({
      status: 403,
      code: "time_over",
    });
    expect((await errorOf(() => store(candidate, { id: video.answer.id, question: w.video.question.id, file: webmFile() }))).status).toBe(403);

    await textAgain({ receipt: text.receipt });
    await store(candidate, { id: video.answer.id, question: w.video.question.id, file: webmFile(), receipt: video.receipt });
    expect(await kept(candidate, [{ id: text.answer.id, question: w.text.question.id }, { id: video.answer.id, question: w.video.question.id }])).toEqual({ missing: [] });
    await w.manager.pb.collection("video_questions").update(w.video.kindRecord.id, { takes: 2 });
  });

  it("are asked for past the deadline while its grace window takes them, and not after; never once the invitation is withdrawn", async () => {
    const su = await superuser();
    const { now } = await su.send<{ now: string }>("/api/screenroom/test-clock", { method: "POST", body: { offsetMs } });
    const deadline = new Date(Date.parse(now.replace(" ", "T")) + 60 * 60_000).toISOString().replace("T", " ");
    const inGrace = await candidateWith({ deadline });
    const afterGrace = await candidateWith({ deadline });
    const withdrawn = await candidateWith();
    const lost: Record<string, Stored> = {};
    const ask = (candidate: string) => kept(candidate, [{ id: lost[candidate]!.answer.id, question: w.text.question.id }]);
    const again = (candidate: string) => () =>
      store(candidate, { id: lost[candidate]!.answer.id, question: w.text.question.id, content: "Before it closed.", receipt: lost[candidate]!.receipt });
    for (const candidate of [inGrace, afterGrace, withdrawn]) {
      await open(candidate, w.text.question.id);
      lost[candidate] = await store(candidate, { id: randomId(), question: w.text.question.id, content: "Before it closed." });
      await loseInRestore(lost[candidate].answer.id);
      expect(await ask(candidate)).toEqual({ missing: [lost[candidate].answer.id] });
    }
    await w.manager.pb.collection("candidates").update(withdrawn, { withdrawn: true });
    expect(await ask(withdrawn)).toEqual({ missing: [] });
    expect(await refusalOf(again(withdrawn))).toEqual({ status: 403, code: "withdrawn" });

    // an hour past the deadline: in its grace window, the question was opened before it
    await advance(2 * 60 * 60_000);
    expect(await ask(inGrace)).toEqual({ missing: [lost[inGrace]!.answer.id] });
    await again(inGrace)();
    expect(await ask(inGrace)).toEqual({ missing: [] });

    // the grace window over: nothing is asked for, and a resend is refused
    await advance(24 * 60 * 60_000);
    expect(await ask(afterGrace)).toEqual({ missing: [] });
    expect(await refusalOf(again(afterGrace))).toEqual({ status: 403, code: "deadline_passed" });
  });

  it("go again with a receipt for a day and an hour, not longer", async () => {
    const lost: [string, Stored][] = [];
    for (const label of ["in its day", "after it"]) {
      const candidate = await candidateWith();
      await open(candidate, w.text.question.id);
      const text = await store(candidate, { id: randomId(), question: w.text.question.id, content: label });
      await loseInRestore(text.answer.id);
      lost.push([candidate, text]);
    }
    const again = ([candidate, text]: [string, Stored]) => () =>
      store(candidate, { id: text.answer.id, question: w.text.question.id, content: text.record.content as string, receipt: text.receipt });
    await advance(24 * 60 * 60_000 + 50 * 60_000);
    await again(lost[0]!)();
    // past its day and an hour the receipt is void: the text's own time rules it out
    await advance(20 * 60_000);
    expect(await refusalOf(again(lost[1]!))).toEqual({ status: 403, code: "time_over" });
  });
});
