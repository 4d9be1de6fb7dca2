// Issue 16 point 3: what deleting takes with it, files included, and archiving where deleting would lose answers
// (server/internal/answers/deletions.go, history.go). On a server of the suite's own, so its storage folder holds
// nobody else's files and "gone from the disk" can be read there.
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
  createQuestion,
  errorOf,
  fixture,
  putPart,
  randomId,
  superuser,
  useOwnServer,
  world,
  type OwnServer,
} from "./helpers";
import { createLink } from "./share-link-support";
import { candidateRowsLeft, entriesOf, NOTHING_LEFT, partsOf } from "./support";

let server: OwnServer;
let su: PocketBase;

beforeAll(async () => {
  server = await useOwnServer();
  su = await superuser();
});

afterAll(async () => {
  await server?.stop();
});

/** The folder PocketBase stores a record's files in ({dataDir}/storage/{collectionId}/{recordId}). */
async function storageOf(collection: string, recordId = "") {
  const { id } = await su.collections.getOne(collection);
  return join(server.dataDir, "storage", id, recordId);
}
const takeDirOf = (take: string) => join(server.dataDir, "screenroom_takes", take);
const entries = entriesOf;

/** Waits for `check` to hold: PocketBase removes a deleted record's files in the background, after the delete. */
async function until(check: () => boolean | Promise<boolean>) {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 25));
}

async function count(collection: string, filter: string, params: Record<string, unknown>) {
  return (await su.collection(collection).getList(1, 1, { filter: su.filter(filter, params) })).totalItems;
}

/**
 * A world whose job also asks a third (video) question, for which the candidate has a take staged, not submitted;
 * the candidate was advanced and sent the advance message.
 */
async function answeredWorld(label: string) {
  const w = await world(label);
  const third = await createQuestion(w.manager.pb, w.company.id, "video", { title: "Third question" });
  await w.manager.pb.collection("jobs").update(w.job.id, { questions: [w.video.question.id, w.text.question.id, third.question.id] });
  const video = await answerVideo(w.candidate.id, w.video.question.id);
  const text = await answerText(w.candidate.id, w.text.question.id);
  const take = randomId();
  await putPart(asCandidate(w.candidate.id), take, 0, new Uint8Array(fixture("answer.webm")).subarray(0, 1000), third.question.id);
  await w.manager.pb.collection("ratings").create({ answer: video.answer.id, candidate: w.candidate.id, manager: w.manager.user.id, stars: 4 });
  await w.manager.pb.collection("comments").create({ candidate: w.candidate.id, author: w.manager.user.id, text: "Calm and clear." });
  await createLink(w.manager.pb, { candidate: w.candidate.id });
  await w.manager.pb.send(`/api/screenroom/candidates/${w.candidate.id}/decision`, { method: "POST", body: { decision: "advance" } });
  await w.manager.pb.send(`/api/screenroom/candidates/${w.candidate.id}/decision-message`, { method: "POST", body: { kind: "advance" } });
  return { ...w, third, videoAnswer: video, textAnswer: text, take };
}

/** Everything of the candidate's, counted by a superuser. */
const leftOf = candidateRowsLeft;
const NOTHING = NOTHING_LEFT;

describe("deleting a candidate", () => {
  it("with answers is refused until the manager confirms the answers go too, then takes everything of theirs, files included", async () => {
    const w = await answeredWorld("del-candidate");
    const videoDir = await storageOf("video_answers", w.videoAnswer.kind.id);
    expect(entries(videoDir).length, JSON.stringify(entries(videoDir))).toBeGreaterThan(0);
    expect(partsOf(takeDirOf(w.take))).toEqual(["0"]);
    const before = await leftOf(w.candidate.id);
    expect(before).toEqual({ candidates: 1, answers: 2, video_answers: 1, text_answers: 1, ratings: 1, comments: 1, share_links: 1, question_progress: 2, staged_takes: 1, webhook_deliveries: 0, decision_messages: 1 });

    const refused = await errorOf(() => w.manager.pb.collection("candidates").delete(w.candidate.id));
    expect(refused.status, JSON.stringify(refused.response)).toBe(400);
    expect(refused.response.data.delete).toMatchObject({ code: "answers_not_confirmed" });
    expect(await leftOf(w.candidate.id)).toEqual(before);

    await w.manager.pb.collection("candidates").delete(w.candidate.id, { query: { deleteAnswers: "true" } });
    expect(await leftOf(w.candidate.id)).toEqual(NOTHING);
    await until(() => !existsSync(videoDir));
    await until(() => !existsSync(takeDirOf(w.take)));
    // the job and its questions stay
    expect((await su.collection("jobs").getOne(w.job.id)).id).toBe(w.job.id);
  });

  it("without answers needs no confirmation", async () => {
    const w = await world("del-candidate-plain");
    await w.manager.pb.collection("candidates").delete(w.candidate.id);
    expect(await count("candidates", "id = {:c}", { c: w.candidate.id })).toBe(0);
  });
});

describe("GET /api/screenroom/deletions/{collection}/{id}: what the delete dialogs say will go", () => {
  it("counts a question's answers and the jobs that ask it, a job's candidates, answers and videos, a candidate's answers and videos", async () => {
    const w = await answeredWorld("dialog-reads");
    const impact = (pb: PocketBase, path: string) => pb.send(`/api/screenroom/deletions/${path}`, { method: "GET" });
    expect(await impact(w.manager.pb, `questions/${w.video.question.id}`)).toEqual({
      answers: 1,
      jobs: [{ id: w.job.id, title: "Support engineer", questions: [w.video.question.id, w.text.question.id, w.third.question.id] }],
    });
    expect(await impact(w.manager.pb, `jobs/${w.job.id}`)).toEqual({ candidates: 1, answers: 2, videos: 1 });
    expect(await impact(w.manager.pb, `candidates/${w.candidate.id}`)).toEqual({ answers: 2, videos: 1 });

    // nobody else learns anything: the same 404 as for a record that does not exist
    const other = await world("dialog-reads-other");
    for (const path of [`questions/${w.video.question.id}`, `jobs/${w.job.id}`, `candidates/${w.candidate.id}`, "candidates/nosuchcandidate", "answers/x"]) {
      for (const pb of [other.manager.pb, asCandidate(w.candidate.id), anonymous()]) {
        const err = await errorOf(() => impact(pb, path));
        expect(err.status).toBe(404);
      }
    }
    await su.collection("companies").delete(w.company.id);
    await su.collection("companies").delete(other.company.id);
  });
});

describe("deleting a question", () => {
  it("without answers takes its kind record and leaves the jobs that asked it with their other questions", async () => {
    const w = await world("del-question");
    await w.manager.pb.collection("questions").delete(w.video.question.id);
    expect(await count("questions", "id = {:q}", { q: w.video.question.id })).toBe(0);
    expect(await count("video_questions", "id = {:k}", { k: w.video.kindRecord.id })).toBe(0);
    expect((await su.collection("jobs").getOne(w.job.id)).questions).toEqual([w.text.question.id]);
  });

  it("that is a job's only question is refused in plain words", async () => {
    const w = await world("del-question-only");
    await w.manager.pb.collection("jobs").update(w.job.id, { questions: [w.text.question.id] });
    const err = await errorOf(() => w.manager.pb.collection("questions").delete(w.text.question.id));
    expect(err.status).toBe(400);
    expect(err.response.data.delete).toMatchObject({
      code: "only_question_of_job",
      message: 'This is the only question of the job "Support engineer": add another question to that job first.',
    });
    expect(await count("questions", "id = {:q}", { q: w.text.question.id })).toBe(1);
  });

  it("with answers is refused: it is archived instead, hidden from the lists that ask for unarchived ones, still in the review", async () => {
    const w = await world("del-question-answered");
    await answerText(w.candidate.id, w.text.question.id);
    const err = await errorOf(() => w.manager.pb.collection("questions").delete(w.text.question.id));
    expect(err.status).toBe(400);
    expect(err.response.data.delete).toMatchObject({ code: "question_has_answers" });
    expect(await count("answers", "question = {:q}", { q: w.text.question.id })).toBe(1);

    await w.manager.pb.collection("questions").update(w.text.question.id, { archived: true });
    const listed = await w.manager.pb.collection("questions").getFullList({ filter: w.manager.pb.filter("company = {:c} && archived = false", { c: w.company.id }) });
    expect(listed.map((q) => q.id)).toEqual([w.video.question.id]);
    const review = await w.manager.pb.send<{ expand: { answers_via_candidate: { questionTitle: string }[]; job: { expand: { questions: { id: string }[] } } } }>(
      `/api/screenroom/reviews/${w.candidate.id}`,
      { method: "GET" },
    );
    expect(review.expand.job.expand.questions.map((q) => q.id)).toContain(w.text.question.id);
    expect(review.expand.answers_via_candidate.map((a) => a.questionTitle)).toEqual(["text question"]);
  });
});

describe("deleting a job", () => {
  it("with answers is refused until confirmed (it can be archived instead), then takes its candidates, answers and files", async () => {
    const w = await answeredWorld("del-job");
    const second = await w.manager.pb.collection("candidates").create({ job: w.job.id, email: `second-${Date.now()}@screenroom.test` });
    await consent(second.id);
    const secondVideo = await answerVideo(second.id, w.video.question.id);
    const dirs = [await storageOf("video_answers", w.videoAnswer.kind.id), await storageOf("video_answers", secondVideo.kind.id)];
    for (const dir of dirs) expect(entries(dir).length, JSON.stringify(entries(dir))).toBeGreaterThan(0);

    const refused = await errorOf(() => w.manager.pb.collection("jobs").delete(w.job.id));
    expect(refused.status, JSON.stringify(refused.response)).toBe(400);
    expect(refused.response.data.delete).toMatchObject({ code: "answers_not_confirmed" });
    await w.manager.pb.collection("jobs").update(w.job.id, { archived: true });
    expect((await su.collection("jobs").getOne(w.job.id)).archived).toBe(true);

    await w.manager.pb.collection("jobs").delete(w.job.id, { query: { deleteAnswers: "true" } });
    expect(await count("jobs", "id = {:j}", { j: w.job.id })).toBe(0);
    expect(await leftOf(w.candidate.id)).toEqual(NOTHING);
    expect(await leftOf(second.id)).toEqual(NOTHING);
    // the company's questions stay (other jobs may ask them; they have no answers left)
    expect(await count("questions", "company = {:c}", { c: w.company.id })).toBe(3);
    for (const dir of dirs) await until(() => !existsSync(dir));
    await until(() => !existsSync(takeDirOf(w.take)));
  });

  it("without answers needs no confirmation", async () => {
    const w = await world("del-job-plain");
    await w.manager.pb.collection("jobs").delete(w.job.id);
    expect(await count("jobs", "id = {:j}", { j: w.job.id })).toBe(0);
    expect(await count("candidates", "id = {:c}", { c: w.candidate.id })).toBe(0);
  });
});

describe("deleting a company (its owner)", () => {
  it("takes everything under it, every file included: the storage folder of answers is empty after", async () => {
    const w = await answeredWorld("del-company");
    const logoDir = await storageOf("companies", w.company.id);
    expect(entries(logoDir).length).toBeGreaterThan(0);
    await w.manager.pb.collection("companies").delete(w.company.id);
    expect(await leftOf(w.candidate.id)).toEqual(NOTHING);
    expect(await count("questions", "company = {:c}", { c: w.company.id })).toBe(0);
    await until(() => !existsSync(logoDir));
    await until(() => !existsSync(takeDirOf(w.take)));
    // every answer of this server's suites was deleted by now (this file's tests run in order): no video file is left
    const videos = await storageOf("video_answers");
    await until(() => entries(videos).length === 0);
    expect(await count("video_answers", "id != ''", {})).toBe(0);
  });
});
