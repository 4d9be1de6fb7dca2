// Issue 16 point 3, history stays true (server/internal/answers/history.go, server/pb_migrations/1733050000_...): every
// answer keeps the question as its candidate was asked it, the review and the shared page show that, a question's kind
// no longer changes once it has answers, and an answered question the job no longer asks stays in the review.
import type PocketBase from "pocketbase";
import type { RecordModel } from "pocketbase";
import { beforeAll, describe, expect, it } from "vitest";
import { answerText, answerVideo, errorOf, superuser, world } from "./helpers";
import { createLink, openShared } from "./share-link-support";
import { batchFailure } from "./support";

type Review = {
  expand: {
    job: { expand: { questions: RecordModel[] } };
    answers_via_candidate: RecordModel[];
  };
};
const review = (pb: PocketBase, candidateId: string) =>
  pb.send<Review>(`/api/screenroom/reviews/${encodeURIComponent(candidateId)}`, { method: "GET" });

let w: Awaited<ReturnType<typeof world>>;
let videoAnswer: RecordModel;
let textAnswer: RecordModel;

beforeAll(async () => {
  w = await world("history");
  await w.manager.pb.collection("questions").update(w.video.question.id, { title: "Tell us about a hard bug", description: "Two minutes, one bug." });
  videoAnswer = (await answerVideo(w.candidate.id, w.video.question.id)).answer;
  textAnswer = (await answerText(w.candidate.id, w.text.question.id)).answer;
});

describe("the answer's snapshot of its question", () => {
  it("is the question as it was when the answer was stored, whoever stored it", async () => {
    expect(videoAnswer).toMatchObject({ questionTitle: "Tell us about a hard bug", questionDescription: "Two minutes, one bug.", questionKind: "video" });
    expect(textAnswer).toMatchObject({ questionTitle: "text question", questionDescription: "Tell us about yourself", questionKind: "text" });

    // a superuser's create (seeds, tools) gets the same, whatever it sent
    const su = await superuser();
    const candidate = await w.manager.pb.collection("candidates").create({ job: w.job.id, email: `snap-${Date.now()}@screenroom.test` });
    const made = await su.collection("answers").create({ candidate: candidate.id, question: w.text.question.id, questionTitle: "Forged", questionKind: "video" });
    expect(made).toMatchObject({ questionTitle: "text question", questionKind: "text" });
  });

  it("stays what the candidate was asked after the question is renamed and reworded", async () => {
    await w.manager.pb.collection("questions").update(w.video.question.id, { title: "Describe a project you are proud of", description: "Anything." });

    const data = await review(w.manager.pb, w.candidate.id);
    const answer = data.expand.answers_via_candidate.find((a) => a.id === videoAnswer.id)!;
    expect(answer).toMatchObject({ questionTitle: "Tell us about a hard bug", questionDescription: "Two minutes, one bug.", questionKind: "video" });
    // the question itself reads as it is now (the question list and the interview of new candidates)
    const question = data.expand.job.expand.questions.find((q) => q.id === w.video.question.id)!;
    expect(question.title).toBe("Describe a project you are proud of");

    // the shared page shows the question as asked too
    const { token } = await createLink(w.manager.pb, { candidate: w.candidate.id });
    const shared = await openShared(token);
    expect(shared.status).toBe(200);
    const titles = (shared.body.questions as { title: string }[]).map((q) => q.title);
    expect(titles).toContain("Tell us about a hard bug");
    expect(titles).not.toContain("Describe a project you are proud of");
  });

  it("keeps an answered question in the review and the shared page after the job stops asking it", async () => {
    const other = await w.manager.pb.collection("questions").create({ company: w.company.id, title: "A new question", description: "Newer", timeout: 60 });
    await w.manager.pb.collection("text_questions").create({ question: other.id });
    await w.manager.pb.collection("jobs").update(w.job.id, { questions: [other.id, w.video.question.id] });

    const data = await review(w.manager.pb, w.candidate.id);
    // the job's questions in its order, then the one answered that it no longer asks
    expect(data.expand.job.expand.questions.map((q) => q.id)).toEqual([other.id, w.video.question.id, w.text.question.id]);

    const { token } = await createLink(w.manager.pb, { candidate: w.candidate.id });
    const shared = await openShared(token);
    const questions = shared.body.questions as { title: string; answer: { kind: string; content?: string } | null }[];
    expect(questions.map((q) => q.title)).toEqual(["A new question", "Tell us about a hard bug", "text question"]);
    expect(questions[2]!.answer).toMatchObject({ kind: "text", content: "I like solving problems." });
    await w.manager.pb.collection("jobs").update(w.job.id, { questions: [w.video.question.id, w.text.question.id] });
  });
});

describe("a question's kind", () => {
  /** What the edit form sends to change a question's kind (src/features/questions/api/update-question.ts). */
  function switchToText(pb: PocketBase, question: string, videoKind: string) {
    const batch = pb.createBatch();
    batch.collection("questions").update(question, { title: "Switched to text" });
    batch.collection("video_questions").delete(videoKind);
    batch.collection("text_questions").create({ question });
    return batch.send();
  }

  it("is refused to change once the question has answers, with a message on the kind field, and nothing changes", async () => {
    const err = await errorOf(() => switchToText(w.manager.pb, w.video.question.id, w.video.kindRecord.id));
    expect(err.status).toBe(400);
    const failure = batchFailure(err);
    expect(failure.index).toBe(1);
    expect(failure.response.data.kind).toMatchObject({
      code: "question_has_answers",
      message: "Candidates have answered this question, so its kind can't change. Create a new question of the other kind instead.",
    });
    const su = await superuser();
    expect((await su.collection("video_questions").getOne(w.video.kindRecord.id)).question).toBe(w.video.question.id);
    expect((await su.collection("questions").getOne(w.video.question.id)).title).toBe("Describe a project you are proud of");
    // a plain delete of the kind record, outside a batch, too
    const plain = await errorOf(() => w.manager.pb.collection("video_questions").delete(w.video.kindRecord.id));
    expect(plain.status).toBe(400);
    expect(plain.response.data.kind.code).toBe("question_has_answers");
  });

  it("still changes while nobody has answered", async () => {
    const fresh = await world("history-kind");
    await switchToText(fresh.manager.pb, fresh.video.question.id, fresh.video.kindRecord.id);
    const su = await superuser();
    expect(await su.collection("text_questions").getFirstListItem(su.filter("question = {:q}", { q: fresh.video.question.id }))).toBeTruthy();
  });
});
