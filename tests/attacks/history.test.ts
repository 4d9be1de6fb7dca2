// Issue 16 point 3, as an attacker tries it (server/internal/answers/history.go): rewriting what a candidate was asked
// (the answers' snapshot), deleting or archiving another company's records, or learning through a refusal that
// someone else's question has answers.
import { beforeAll, describe, expect, it } from "vitest";
import { asCandidate, errorOf, newCandidateOf, postAnswer, randomId, statusOf, world, answerText } from "../helpers";
import { admin, storedOrNull } from "../support";

type World = Awaited<ReturnType<typeof world>>;
let a: World;
let b: World;
beforeAll(async () => {
  a = await world("attack-history-a");
  b = await world("attack-history-b");
});

describe("the answers' snapshot of their question", () => {
  it("is the server's: a candidate's answer carrying its own title, description and kind stores the real ones", async () => {
    const candidate = await newCandidateOf(a, "forged-snapshot");
    const id = randomId();
    await postAnswer(asCandidate(candidate), {
      id,
      candidate,
      question: a.text.question.id,
      content: "Hello",
      questionTitle: "What is your salary expectation?",
      questionDescription: "Forged",
      questionKind: "video",
    });
    expect(await storedOrNull("answers", id)).toMatchObject({ questionTitle: "text question", questionDescription: "Tell us about yourself", questionKind: "text" });
  });

  it("is written by nobody afterwards: not the job's manager, not the candidate, not through the batch API", async () => {
    const candidate = await newCandidateOf(a, "rewrite-snapshot");
    const { answer } = await answerText(candidate, a.text.question.id);
    const change = { questionTitle: "Rewritten", questionKind: "video" };
    for (const pb of [a.manager.pb, b.manager.pb, asCandidate(candidate)]) {
      expect([403, 404]).toContain(await statusOf(() => pb.collection("answers").update(answer.id, change)));
      const batch = pb.createBatch();
      batch.collection("answers").update(answer.id, change);
      expect([400, 403, 404]).toContain(await statusOf(() => batch.send()));
    }
    expect(await storedOrNull("answers", answer.id)).toMatchObject({ questionTitle: "text question", questionKind: "text" });
  });
});

describe("deleting and archiving another company's records", () => {
  it("is refused to another company's manager, confirmed or not, directly or in a batch, and the refusal says nothing of answers", async () => {
    const candidate = await newCandidateOf(a, "others-delete");
    await answerText(candidate, a.text.question.id);
    const confirmed = { query: { deleteAnswers: "true" } };
    const attempts = [
      () => b.manager.pb.collection("candidates").delete(candidate, confirmed),
      () => b.manager.pb.collection("jobs").delete(a.job.id, confirmed),
      () => b.manager.pb.collection("questions").delete(a.text.question.id),
      () => b.manager.pb.collection("text_questions").delete(a.text.kindRecord.id),
      () => b.manager.pb.collection("questions").update(a.text.question.id, { archived: true }),
      () => b.manager.pb.collection("jobs").update(a.job.id, { archived: true }),
    ];
    for (const attempt of attempts) {
      const err = await errorOf(attempt);
      // the same 404 as for a record that does not exist: not the 400 that tells a manager of A it has answers
      expect(err.status).toBe(404);
      expect(JSON.stringify(err.response)).not.toMatch(/answer/i);
    }
    const batch = b.manager.pb.createBatch();
    batch.collection("candidates").delete(candidate);
    expect([400, 403, 404]).toContain(await statusOf(() => batch.send()));

    expect(await storedOrNull("candidates", candidate)).not.toBeNull();
    expect(await storedOrNull("jobs", a.job.id)).toMatchObject({ archived: false });
    expect(await storedOrNull("questions", a.text.question.id)).toMatchObject({ archived: false });
    expect(await storedOrNull("text_questions", a.text.kindRecord.id)).not.toBeNull();
  });

  it("is refused to a candidate, even for its own record and answers", async () => {
    const candidate = await newCandidateOf(a, "self-delete");
    const { answer } = await answerText(candidate, a.text.question.id);
    const pb = asCandidate(candidate);
    for (const attempt of [
      () => pb.collection("candidates").delete(candidate, { query: { deleteAnswers: "true" } }),
      () => pb.collection("answers").delete(answer.id),
      () => pb.collection("jobs").delete(a.job.id, { query: { deleteAnswers: "true" } }),
      () => pb.collection("questions").update(a.text.question.id, { archived: true }),
    ]) {
      expect([403, 404]).toContain(await statusOf(attempt));
    }
    expect(await storedOrNull("candidates", candidate)).not.toBeNull();
    expect(await storedOrNull("answers", answer.id)).not.toBeNull();
  });

  it("a batch cannot slip a confirmed delete past the answers check of another record", async () => {
    // A's manager deletes, in one batch, an unanswered candidate (fine) and an answered one without confirming it
    const answered = await newCandidateOf(a, "batch-answered");
    await answerText(answered, a.text.question.id);
    const plain = await newCandidateOf(a, "batch-plain");
    const batch = a.manager.pb.createBatch();
    batch.collection("candidates").delete(plain);
    batch.collection("candidates").delete(answered);
    expect(await statusOf(() => batch.send())).toBe(400);
    // all or nothing
    expect(await storedOrNull("candidates", plain)).not.toBeNull();
    expect(await storedOrNull("candidates", answered)).not.toBeNull();
    expect((await (await admin()).collection("answers").getList(1, 1, { filter: `candidate = "${answered}"` })).totalItems).toBe(1);
  });
});
