// What the candidate may read with only its key (X-Candidate-Key) through the records API: its own record, but not
// its job, company or questions (issue 20: the interview screens get those from GET /api/screenroom/interviews/{key},
// tests/interview-route.test.ts; pb_migrations/1733200200_manager_only_views.js); its own answers; and a retried
// answer batch that never makes a second answer.
import type { RecordModel } from "pocketbase";
import { beforeAll, describe, expect, it } from "vitest";
import { answerText, asCandidate, consent, errorOf, postAnswer, randomId, webmFile, world } from "./helpers";
import { countOf } from "./support";

const EXPAND = "job.company,job.questions,job.questions.video_questions_via_question,job.questions.text_questions_via_question";

type Expanded = RecordModel & {
  expand: {
    job: RecordModel & {
      expand: {
        company: RecordModel;
        questions: (RecordModel & { expand?: Record<string, RecordModel[] | RecordModel> })[];
      };
    };
  };
};

let a: Awaited<ReturnType<typeof world>>;
let b: Awaited<ReturnType<typeof world>>;

beforeAll(async () => {
  a = await world("interview-a");
  b = await world("interview-b");
});

describe("the candidate's interview read", () => {
  it("reads its own record, without its job, company or questions (the interview route gives those)", async () => {
    const pb = asCandidate(a.candidate.id);
    const candidate = await pb.collection("candidates").getOne<Expanded>(a.candidate.id, { expand: EXPAND });
    expect(candidate.id).toBe(a.candidate.id);
    expect(candidate.job).toBe(a.job.id);
    expect(candidate.expand?.job).toBeUndefined();
    for (const [collection, id] of [
      ["jobs", a.job.id],
      ["companies", a.company.id],
      ["questions", a.video.question.id],
      ["video_questions", a.video.kindRecord.id],
      ["text_questions", a.text.kindRecord.id],
    ] as const) {
      expect((await errorOf(() => pb.collection(collection).getOne(id))).status, collection).toBe(404);
    }
  });

  it("gets nothing of another job through the expand, and another candidate's record not at all", async () => {
    const pb = asCandidate(b.candidate.id);
    expect((await errorOf(() => pb.collection("candidates").getOne(a.candidate.id, { expand: EXPAND }))).status).toBe(404);
  });

  it("lists only its own answers", async () => {
    await answerText(b.candidate.id, b.text.question.id);
    const pb = asCandidate(a.candidate.id);
    const everything = await pb.collection("answers").getFullList();
    expect(everything.every((answer) => answer.candidate === a.candidate.id)).toBe(true);
    const foreign = await pb.collection("answers").getFullList({ filter: pb.filter("candidate = {:c}", { c: b.candidate.id }) });
    expect(foreign).toEqual([]);
  });
});

describe("a retried answer", () => {
  it("is refused when the first one arrived, the answer is found by its id, and there is still one answer", async () => {
    const pb = asCandidate(a.candidate.id);
    const id = randomId();
    const send = () => postAnswer(pb, { id, question: a.video.question.id, file: webmFile() });
    await send();
    const retry = await errorOf(send);
    expect(retry.status).toBe(400);
    expect((await pb.collection("answers").getOne(id)).question).toBe(a.video.question.id);
    expect(await countOf("answers", "candidate = {:c} && question = {:q}", { c: a.candidate.id, q: a.video.question.id })).toBe(1);
    expect(await countOf("video_answers", "answer = {:a}", { a: id })).toBe(1);
  });

  it("with a new id for an answered question is refused too: a submitted answer cannot be changed", async () => {
    const pb = asCandidate(a.candidate.id);
    await answerText(a.candidate.id, a.text.question.id, "first");
    const id = randomId();
    expect((await errorOf(() => postAnswer(pb, { id, question: a.text.question.id, content: "second" }))).status).toBe(400);
    expect((await errorOf(() => pb.collection("answers").getOne(id))).status).toBe(404);
    expect(await countOf("answers", "candidate = {:c} && question = {:q}", { c: a.candidate.id, q: a.text.question.id })).toBe(1);
  });

  it("whose kind record fails leaves no half answer behind", async () => {
    const candidate = await a.manager.pb.collection("candidates").create({ job: a.job.id, email: `half-${randomId()}@screenroom.test` });
    await consent(candidate.id);
    const pb = asCandidate(candidate.id);
    const id = randomId();
    expect((await errorOf(() => postAnswer(pb, { id, question: a.text.question.id, content: "" }))).status).toBe(400);
    expect(await countOf("answers", "id = {:id}", { id })).toBe(0);
  });
});

