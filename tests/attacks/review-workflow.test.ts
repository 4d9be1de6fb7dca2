// Issue 15's review workflow, as an attacker tries it (pocketbase/pb_hooks/review-workflow.pb.js, the rules of
// pb_migrations/1732900000_review_workflow.js): a candidate's key reading what the managers think of it (its
// decision, its rating) through a view, an expand or a realtime event; writes of the fields only the server keeps.
import { EventSource } from "eventsource";
import type PocketBase from "pocketbase";
import type { RecordModel } from "pocketbase";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answerText, answerVideo, asCandidate, keyOf, newCandidateOf, world } from "../helpers";
import { admin } from "../support";

(globalThis as { EventSource?: unknown }).EventSource ??= EventSource;

type World = Awaited<ReturnType<typeof world>>;
const MANAGERS_ONLY = ["decision", "decisionBy", "decisionAt", "averageRating", "ratingsCount"];

let a: World;
let b: World;
beforeAll(async () => {
  a = await world("attack-workflow-a");
  b = await world("attack-workflow-b");
});

const unsubscribers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const stop of unsubscribers) await stop().catch(() => undefined);
});

/** Subscribes `pb` to `topic` of `collection` and collects the events' records. */
async function collect(pb: PocketBase, collection: string, topic: string, options: Record<string, unknown> = {}) {
  const seen: { action: string; record: RecordModel }[] = [];
  unsubscribers.push(await pb.collection(collection).subscribe(topic, (event) => seen.push(event), options));
  return seen;
}

/** A candidate of A's job with an answer, a decision and a rating (written by a superuser, as the server keeps them). */
async function decidedCandidate(label: string) {
  const candidate = await newCandidateOf(a, label);
  const { answer } = await answerText(candidate, a.text.question.id);
  await (await admin())
    .collection("candidates")
    .update(candidate, { decision: "reject", decisionBy: a.manager.user.id, decisionAt: "2024-06-01 10:00:00.000Z", averageRating: 4, ratingsCount: 1 });
  return { candidate, answer };
}

function expectNoManagersOnlyFields(record: Record<string, unknown> | undefined) {
  expect(record).toBeDefined();
  for (const field of MANAGERS_ONLY) expect(record, field).not.toHaveProperty(field);
}

describe("a candidate's key", () => {
  it("reads its own record without its decision or rating, while the job's managers read them", async () => {
    const { candidate } = await decidedCandidate("key-view");
    const own = await asCandidate(candidate).collection("candidates").getOne(candidate);
    expect(own.status).toBe("started");
    expectNoManagersOnlyFields(own);
    // asking for the fields by name changes nothing
    expectNoManagersOnlyFields(await asCandidate(candidate).collection("candidates").getOne(candidate, { fields: MANAGERS_ONLY.join(",") }));
    expect(await a.manager.pb.collection("candidates").getOne(candidate)).toMatchObject({ decision: "reject", decisionBy: a.manager.user.id, ratingsCount: 1, averageRating: 4 });
  });

  it("reads no decision or rating through an expand from its answers or their kind records", async () => {
    const { candidate } = await decidedCandidate("key-expand");
    const pb = asCandidate(candidate);
    const answers = await pb.collection("answers").getFullList({ filter: pb.filter("candidate = {:c}", { c: candidate }), expand: "candidate" });
    expect(answers).toHaveLength(1);
    expectNoManagersOnlyFields(answers[0]!.expand?.candidate as Record<string, unknown>);
    const one = await pb.collection("answers").getOne(answers[0]!.id, { expand: "candidate" });
    expectNoManagersOnlyFields(one.expand?.candidate as Record<string, unknown>);
    const kinds = await pb.collection("text_answers").getFullList({ filter: pb.filter("answer.candidate = {:c}", { c: candidate }), expand: "answer.candidate" });
    expectNoManagersOnlyFields((kinds[0]!.expand?.answer as RecordModel).expand?.candidate as Record<string, unknown>);
  });

  it("reads no decision or rating through its realtime subscription, while a manager's carries them", async () => {
    const candidate = await newCandidateOf(a, "key-realtime");
    await answerVideo(candidate, a.video.question.id);
    const key = (await keyOf(candidate))!;
    const asKey = await collect(asCandidate(candidate), "candidates", candidate, { headers: { "X-Candidate-Key": key } });
    const asExpand = await collect(asCandidate(candidate), "answers", "*", { headers: { "X-Candidate-Key": key }, expand: "candidate" });
    const asManager = await collect(a.manager.pb, "candidates", candidate);
    const su = await admin();
    await su.collection("candidates").update(candidate, { decision: "advance", decisionBy: a.manager.user.id, decisionAt: "2024-06-01 10:00:00.000Z" });
    await expect.poll(() => asKey.length, { timeout: 20_000 }).toBeGreaterThan(0);
    await expect.poll(() => asManager.length, { timeout: 20_000 }).toBeGreaterThan(0);
    expect(asKey[0]!.record.id).toBe(candidate);
    expect(asKey[0]!.record.status).toBe("started");
    expectNoManagersOnlyFields(asKey[0]!.record);
    expect(asManager[0]!.record).toMatchObject({ decision: "advance", decisionBy: a.manager.user.id });

    // an answer event expanding the candidate
    await answerText(candidate, a.text.question.id);
    await expect.poll(() => asExpand.length, { timeout: 20_000 }).toBeGreaterThan(0);
    expectNoManagersOnlyFields(asExpand[0]!.record.expand?.candidate as Record<string, unknown>);
  });

  it("of another job, presented by another company's manager, reads nothing more of A's candidate", async () => {
    const { candidate } = await decidedCandidate("key-other-manager");
    const key = (await keyOf(candidate))!;
    // B's manager, holding A's candidate's key (say, forwarded to them), views it as the candidate would
    const pb = b.manager.pb;
    const seen = await pb.collection("candidates").getOne(candidate, { headers: { "X-Candidate-Key": key } });
    expectNoManagersOnlyFields(seen);
  });
});
