// The route a reopened link asks which of its device's kept answers the server lost
// (POST /api/screenroom/interviews/{key}/kept-answers, server/internal/interview/kept_answers.go), and the receipts
// that let a lost answer back in, as an attacker would use them: without a key, with a wrong or another candidate's
// key, as a manager, for a candidate who withdrew or was erased, about another job's questions and other candidates'
// answer ids (a true and a false guess answer the same), with another candidate's receipt.
import { beforeAll, describe, expect, it } from "vitest";
import { asCandidate, errorOf, keyOf, newCandidateOf, pbUrl, postAnswer, randomId, superuser, webmFile, world } from "../helpers";
import { answersOf } from "../support";

let a: Awaited<ReturnType<typeof world>>;
let b: Awaited<ReturnType<typeof world>>;
let victim: string;
let victimAnswer: { id: string; receipt: string };

beforeAll(async () => {
  a = await world("attack-kept-answers-a");
  b = await world("attack-kept-answers-b");
  victim = await newCandidateOf(a, "kept-answers-victim");
  const stored = await postAnswer(asCandidate(victim), { id: randomId(), question: a.text.question.id, content: "The victim's answer." });
  victimAnswer = { id: stored.answer.id, receipt: (stored as unknown as { receipt: string }).receipt };
});

const route = (key: string) => `${pbUrl()}/api/screenroom/interviews/${encodeURIComponent(key)}/kept-answers`;

async function ask(pathKey: string, headers: Record<string, string>, answers: unknown = []) {
  const res = await fetch(route(pathKey), {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: JSON.stringify({ answers }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as unknown) : null };
}

const keyed = async (candidate: string) => ({ "X-Candidate-Key": (await keyOf(candidate))! });

describe("the kept answers route", () => {
  it("answers nobody but the key holder: the same 404 for every other way in", async () => {
    const key = (await keyOf(victim))!;
    const otherKey = (await keyOf(b.candidate.id))!;
    const asked = [{ id: victimAnswer.id, question: a.text.question.id }];
    const wrong: [string, string, Record<string, string>][] = [
      ["anonymous", key, {}],
      ["a wrong key", "x".repeat(40), { "X-Candidate-Key": "x".repeat(40) }],
      ["a wrong key in the header", key, { "X-Candidate-Key": "y".repeat(40) }],
      ["another candidate's key in the header", key, { "X-Candidate-Key": otherKey }],
      ["the key in the header, another candidate's in the path", otherKey, { "X-Candidate-Key": key }],
      ["the record id", victim, { "X-Candidate-Key": victim }],
      ["the company's own manager", key, { Authorization: a.manager.pb.authStore.token }],
      ["another company's manager", key, { Authorization: b.manager.pb.authStore.token }],
    ];
    for (const [who, pathKey, headers] of wrong) {
      expect({ who, ...(await ask(pathKey, headers, asked)) }).toEqual({ who, status: 404, body: expect.objectContaining({ message: "This interview link is not valid." }) });
    }
  });

  it("says the same of another candidate's answer ids as of made-up ones, and nothing of another job's questions", async () => {
    const guesser = await newCandidateOf(a, "kept-answers-guesser");
    const headers = await keyed(guesser);
    const key = (await keyOf(guesser))!;
    const made = randomId();
    // the victim's answer to a question the guesser has not answered: "missing" for the guesser, as any id is
    const truth = await ask(key, headers, [{ id: victimAnswer.id, question: a.text.question.id }]);
    const lie = await ask(key, headers, [{ id: made, question: a.text.question.id }]);
    expect(truth).toEqual({ status: 200, body: { missing: [victimAnswer.id] } });
    expect(lie).toEqual({ status: 200, body: { missing: [made] } });
    // another job's question, answered or not, real or not: never reported
    await postAnswer(asCandidate(b.candidate.id), { id: randomId(), question: b.text.question.id, content: "B's answer." });
    for (const question of [b.text.question.id, b.video.question.id, randomId()]) {
      expect(await ask(key, headers, [{ id: randomId(), question }])).toEqual({ status: 200, body: { missing: [] } });
    }
  });

  it("refuses a list longer than any job's questions, and a body that is not one", async () => {
    const headers = await keyed(victim);
    const key = (await keyOf(victim))!;
    const many = Array.from({ length: 201 }, () => ({ id: randomId(), question: a.text.question.id }));
    expect((await ask(key, headers, many)).status).toBe(400);
    const res = await fetch(route(key), { method: "POST", headers: { "Content-Type": "application/json", ...headers }, body: "not json" });
    expect(res.status).toBe(400);
    const huge = await fetch(route(key), { method: "POST", headers: { "Content-Type": "application/json", ...headers }, body: JSON.stringify({ answers: [{ id: "a".repeat(40_000), question: "q" }] }) });
    expect(huge.status).toBe(413);
  });

  it("is a 404 for a candidate who withdrew and had their answers deleted, and for one a manager erased", async () => {
    const withdrew = await newCandidateOf(a, "kept-answers-withdrew");
    const erased = await newCandidateOf(a, "kept-answers-erased");
    const keys = { withdrew: (await keyOf(withdrew))!, erased: (await keyOf(erased))! };
    await asCandidate(withdrew).send(`/api/screenroom/interviews/${keys.withdrew}/withdraw`, { method: "POST" });
    await a.manager.pb.send(`/api/screenroom/candidates/${erased}/erase`, { method: "POST" });
    for (const key of Object.values(keys)) {
      expect((await ask(key, { "X-Candidate-Key": key }, [{ id: randomId(), question: a.text.question.id }])).status).toBe(404);
    }
  });
});

describe("a receipt", () => {
  it("lets in nothing but the answer it was given for: another candidate presenting it answers as new, and is counted as such", async () => {
    const su = await superuser();
    await su.collection("answers").delete(victimAnswer.id);
    const thief = await newCandidateOf(a, "kept-answers-thief");
    // the victim's lost answer, presented by another candidate with the victim's receipt: a new answer of the thief's
    // own, by the rules every new answer meets (here: the thief's takes, since the receipt does not hold)
    await a.manager.pb.collection("video_questions").update(a.video.kindRecord.id, { takes: 1 });
    try {
      await postAnswer(asCandidate(thief), { id: randomId(), question: a.video.question.id, file: webmFile() });
      const thiefAnswer = (await su.collection("answers").getFullList({ filter: `candidate = "${thief}"` }))[0]!;
      await su.collection("answers").delete(thiefAnswer.id);
      const err = await errorOf(() => postAnswer(asCandidate(thief), { id: thiefAnswer.id, question: a.video.question.id, file: webmFile(), receipt: victimAnswer.receipt }));
      expect(err.status).toBe(403);
      expect(await answersOf(thief)).toBe(0);
      // and the victim's own id, taken by the thief with the victim's receipt, is the thief's answer, never the victim's
      await postAnswer(asCandidate(thief), { id: victimAnswer.id, question: a.text.question.id, content: "Not the victim's.", receipt: victimAnswer.receipt });
      expect((await su.collection("answers").getOne(victimAnswer.id)).candidate).toBe(thief);
      expect(await answersOf(victim)).toBe(0);
    } finally {
      await a.manager.pb.collection("video_questions").update(a.video.kindRecord.id, { takes: 2 });
    }
  });
});
