// Issue 15's review workflow, as an attacker tries it (server/internal/pipeline and review, the rules of
// pb_migrations/1732900000_review_workflow.js): a candidate's key reading what the managers think of it (its
// decision, its rating) through a view, an expand or a realtime event; writes of the fields only the server keeps.
import { EventSource } from "eventsource";
import type PocketBase from "pocketbase";
import type { RecordModel } from "pocketbase";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answerText, answerVideo, asCandidate, createCompany, keyOf, newCandidateOf, signUp, statusOf, uniqueEmail, world } from "../helpers";
import { acceptInvite, admin, countOf, listOutcome, storedOrNull } from "../support";

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

/** The stored record (as a superuser reads it). */
async function stored(collection: string, id: string) {
  const record = await storedOrNull(collection, id);
  if (!record) throw new Error(`${collection}/${id} is not stored`);
  return record;
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

describe("forging ratings", () => {
  let colleague: Awaited<ReturnType<typeof signUp>>;
  beforeAll(async () => {
    colleague = await signUp({ email: uniqueEmail("attack-colleague") });
    const invite = await a.manager.pb.collection("manager_invites").create({ company: a.company.id, email: colleague.user.email });
    expect((await acceptInvite(invite.id, colleague.pb.authStore.token)).status).toBe(200);
  });

  /** A candidate of A's job with a video and a text answer, and A's manager's rating of the video answer. */
  async function rated(label: string) {
    const candidate = await newCandidateOf(a, label);
    const video = (await answerVideo(candidate, a.video.question.id)).answer.id;
    const text = (await answerText(candidate, a.text.question.id)).answer.id;
    const rating = await a.manager.pb.collection("ratings").create({ answer: video, candidate, manager: a.manager.user.id, stars: 5 });
    return { candidate, video, text, rating };
  }

  it("a colleague cannot rate in another manager's name, by the records API or a batch", async () => {
    const { candidate, text } = await rated("forge-create");
    const body = { answer: text, candidate, manager: a.manager.user.id, stars: 1 };
    expect(await statusOf(() => colleague.pb.collection("ratings").create(body))).toBe(400);
    const batch = colleague.pb.createBatch();
    batch.collection("ratings").create(body);
    expect(await statusOf(() => batch.send())).toBe(400);
    expect(await countOf("ratings", "candidate = {:c}", { c: candidate })).toBe(1);
    expect((await stored("candidates", candidate)).averageRating).toBe(5);
  });

  it("a colleague cannot change or delete another manager's rating", async () => {
    const { candidate, rating } = await rated("forge-update");
    expect(await statusOf(() => colleague.pb.collection("ratings").update(rating.id, { stars: 1 }))).toBe(404);
    expect(await statusOf(() => colleague.pb.collection("ratings").update(rating.id, { stars: 1, manager: colleague.user.id }))).toBe(404);
    expect(await statusOf(() => colleague.pb.collection("ratings").delete(rating.id))).toBe(404);
    const batch = colleague.pb.createBatch();
    batch.collection("ratings").update(rating.id, { stars: 1 });
    expect([400, 404]).toContain(await statusOf(() => batch.send()));
    expect(await stored("ratings", rating.id)).toMatchObject({ stars: 5, manager: a.manager.user.id });
    expect((await stored("candidates", candidate)).averageRating).toBe(5);
  });

  it("a manager cannot hand their rating to someone else, nor move it to another answer or candidate", async () => {
    const { candidate, text, rating } = await rated("forge-move");
    const other = await rated("forge-move-other");
    const pb = a.manager.pb;
    for (const change of [{ manager: colleague.user.id }, { answer: text }, { answer: other.text, candidate: other.candidate }, { candidate: other.candidate }]) {
      expect({ change, status: await statusOf(() => pb.collection("ratings").update(rating.id, { ...change, stars: 2 })) }).toEqual({ change, status: 404 });
    }
    expect(await stored("ratings", rating.id)).toMatchObject({ stars: 5, answer: rating.answer, candidate, manager: a.manager.user.id });
    expect((await stored("candidates", other.candidate)).ratingsCount).toBe(1);
  });

  it("nobody rates another company's answer, with its candidate or with one of their own", async () => {
    const { candidate, text } = await rated("foreign-answer");
    const own = await newCandidateOf(b, "foreign-own");
    for (const body of [
      { answer: text, candidate, manager: b.manager.user.id, stars: 1 },
      { answer: text, candidate: own, manager: b.manager.user.id, stars: 1 },
    ]) {
      expect(await statusOf(() => b.manager.pb.collection("ratings").create(body))).toBe(400);
    }
    expect(await countOf("ratings", "answer = {:a}", { a: text })).toBe(0);
    expect((await stored("candidates", own)).ratingsCount).toBe(0);
  });

  it("a rating's candidate must be its answer's: another candidate of the same job is refused", async () => {
    const { text } = await rated("mismatch-answer");
    const other = await newCandidateOf(a, "mismatch-other");
    expect(await statusOf(() => a.manager.pb.collection("ratings").create({ answer: text, candidate: other, manager: a.manager.user.id, stars: 1 }))).toBe(400);
    expect(await countOf("ratings", "candidate = {:c}", { c: other })).toBe(0);
    expect((await stored("candidates", other)).averageRating).toBe(0);
  });
});

describe("reading another company's ratings and comments", () => {
  let victim: { candidate: string; answer: string; rating: RecordModel; comment: RecordModel };
  beforeAll(async () => {
    const candidate = await newCandidateOf(a, "read-victim");
    const answer = (await answerText(candidate, a.text.question.id)).answer.id;
    const rating = await a.manager.pb.collection("ratings").create({ answer, candidate, manager: a.manager.user.id, stars: 2 });
    const comment = await a.manager.pb.collection("comments").create({ candidate, author: a.manager.user.id, text: "Not a fit: salary too high." });
    victim = { candidate, answer, rating, comment };
    // B's own rating and comment of its own candidate
    const own = (await answerVideo(b.candidate.id, b.video.question.id)).answer.id;
    bOwn = {
      rating: await b.manager.pb.collection("ratings").create({ answer: own, candidate: b.candidate.id, manager: b.manager.user.id, stars: 4 }),
      comment: await b.manager.pb.collection("comments").create({ candidate: b.candidate.id, author: b.manager.user.id, text: "Ours to read" }),
      answer: own,
    };
  });
  let bOwn: { rating: RecordModel; comment: RecordModel; answer: string };

  it("gives another company's manager nothing by id, by filter on their ids, or by expand", async () => {
    const pb = b.manager.pb;
    expect(await statusOf(() => pb.collection("ratings").getOne(victim.rating.id))).toBe(404);
    expect(await statusOf(() => pb.collection("comments").getOne(victim.comment.id))).toBe(404);
    const filters: [string, string][] = [
      ["ratings", `candidate = '${victim.candidate}'`],
      ["ratings", `answer = '${victim.answer}'`],
      ["ratings", `manager = '${a.manager.user.id}'`],
      ["comments", `candidate = '${victim.candidate}'`],
      ["comments", `author = '${a.manager.user.id}'`],
    ];
    for (const [collection, filter] of filters) {
      expect({ collection, filter, outcome: await listOutcome(pb, collection, { filter }) }).toEqual({ collection, filter, outcome: { status: 200, count: 0, ids: [] } });
    }
    // expanding their own candidate's and answer's back-relations shows their own company's alone
    const theirs = await pb.collection("candidates").getOne(b.candidate.id, { expand: "ratings_via_candidate,comments_via_candidate" });
    expect((theirs.expand?.ratings_via_candidate as RecordModel[]).map((r) => r.id)).toEqual([bOwn.rating.id]);
    expect((theirs.expand?.comments_via_candidate as RecordModel[]).map((r) => r.id)).toEqual([bOwn.comment.id]);
    const answer = await pb.collection("answers").getOne(bOwn.answer, { expand: "ratings_via_answer" });
    expect((answer.expand?.ratings_via_answer as RecordModel[]).map((r) => r.id)).toEqual([bOwn.rating.id]);
    // and a list of all they may read holds nothing of A's
    expect((await pb.collection("ratings").getFullList()).map((r) => r.id)).not.toContain(victim.rating.id);
    expect((await pb.collection("comments").getFullList()).map((r) => r.id)).not.toContain(victim.comment.id);
  });

  it("refuses back-relation filters and sorts to everyone (they are no way around the rules)", async () => {
    for (const [collection, query] of [
      ["candidates", { filter: "ratings_via_candidate.stars >= 1" }],
      ["candidates", { filter: "comments_via_candidate.text ~ 'salary'" }],
      ["answers", { filter: "ratings_via_answer.stars <= 2" }],
      ["candidates", { sort: "ratings_via_candidate.stars" }],
    ] as const) {
      const outcome = await listOutcome(b.manager.pb, collection, query);
      expect({ collection, query, status: outcome.status }).toEqual({ collection, query, status: 400 });
    }
  });

  it("gives the candidate's key no ratings or comments through back-relation expands of its own records", async () => {
    const pb = asCandidate(victim.candidate);
    const own = await pb.collection("candidates").getOne(victim.candidate, { expand: "ratings_via_candidate,comments_via_candidate" });
    expect(own.expand ?? {}).toEqual({});
    const answer = await pb.collection("answers").getOne(victim.answer, { expand: "ratings_via_answer" });
    expect(answer.expand ?? {}).toEqual({});
    const list = await pb.collection("answers").getFullList({ filter: pb.filter("candidate = {:c}", { c: victim.candidate }), expand: "ratings_via_answer" });
    expect(list.map((item) => item.expand ?? {})).toEqual([{}]);
    expect(await statusOf(() => pb.collection("ratings").getOne(victim.rating.id))).toBe(404);
    expect((await pb.collection("comments").getList(1, 50)).items).toEqual([]);
  });

  it("a manager sharing another company with the author sees none of these through the author's back-relations", async () => {
    // M manages X with A's manager, not A's company
    const x = await createCompany(a.manager.pb, "Shared X");
    const m = await signUp({ email: uniqueEmail("attack-shared-m") });
    const invite = await a.manager.pb.collection("manager_invites").create({ company: x.id, email: m.user.email });
    expect((await acceptInvite(invite.id, m.pb.authStore.token)).status).toBe(200);
    await a.manager.pb.send(`/api/screenroom/candidates/${victim.candidate}/decision`, { method: "POST", body: { decision: "reject" } });
    const author = await m.pb.collection("users").getOne(a.manager.user.id, { expand: "ratings_via_manager,comments_via_author,candidates_via_decisionBy" });
    expect(author.id).toBe(a.manager.user.id);
    expect(author.expand ?? {}).toEqual({});
  });

  it("sends another company's manager and the candidate no realtime event of them", async () => {
    const key = (await keyOf(victim.candidate))!;
    const other = { ratings: await collect(b.manager.pb, "ratings", "*"), comments: await collect(b.manager.pb, "comments", "*") };
    const asKey = {
      ratings: await collect(asCandidate(victim.candidate), "ratings", "*", { headers: { "X-Candidate-Key": key } }),
      comments: await collect(asCandidate(victim.candidate), "comments", "*", { headers: { "X-Candidate-Key": key } }),
      own: await collect(asCandidate(victim.candidate), "candidates", victim.candidate, { headers: { "X-Candidate-Key": key } }),
    };
    const colleagueView = await collect(a.manager.pb, "ratings", "*");

    const second = await newCandidateOf(a, "realtime-victim");
    const answer = (await answerText(second, a.text.question.id)).answer.id;
    await a.manager.pb.collection("ratings").create({ answer, candidate: second, manager: a.manager.user.id, stars: 3 });
    await a.manager.pb.collection("comments").create({ candidate: second, author: a.manager.user.id, text: "Secret" });
    await a.manager.pb.collection("ratings").update(victim.rating.id, { stars: 3 });
    await a.manager.pb.collection("comments").create({ candidate: victim.candidate, author: a.manager.user.id, text: "About you" });
    await expect.poll(() => colleagueView.length, { timeout: 20_000 }).toBe(2);

    // events each subscriber is owed, sent after those: once they arrived, the earlier ones would have too
    const bAnswer = (await answerText(b.candidate.id, b.text.question.id)).answer.id;
    await b.manager.pb.collection("ratings").create({ answer: bAnswer, candidate: b.candidate.id, manager: b.manager.user.id, stars: 1 });
    await b.manager.pb.collection("comments").create({ candidate: b.candidate.id, author: b.manager.user.id, text: "Ours" });
    await a.manager.pb.send(`/api/screenroom/candidates/${victim.candidate}/decision`, { method: "POST", body: { decision: "hold" } });
    await expect.poll(() => other.ratings.length + other.comments.length, { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
    await expect.poll(() => asKey.own.length, { timeout: 20_000 }).toBeGreaterThan(0);

    expect(other.ratings.map((event) => event.record.candidate)).toEqual([b.candidate.id]);
    expect(other.comments.map((event) => event.record.text)).toEqual(["Ours"]);
    expect({ ratings: asKey.ratings, comments: asKey.comments }).toEqual({ ratings: [], comments: [] });
    expectNoManagersOnlyFields(asKey.own[0]!.record);
  });
});

describe("the server's fields through the records and batch APIs", () => {
  it("a batch carrying one forged field is refused whole: nothing of it is stored", async () => {
    const candidate = await newCandidateOf(a, "batch-forge");
    const email = uniqueEmail("batch-forge-new");
    const batch = a.manager.pb.createBatch();
    batch.collection("candidates").update(candidate, { email });
    batch.collection("candidates").update(candidate, { decision: "advance", decisionBy: a.manager.user.id });
    batch.collection("candidates").create({ job: a.job.id, email: uniqueEmail("batch-forge-created"), status: "completed", answeredCount: 2 });
    expect(await statusOf(() => batch.send())).toBe(400);
    expect(await stored("candidates", candidate)).toMatchObject({ decision: "", decisionBy: "", status: "invited" });
    expect((await stored("candidates", candidate))?.email).not.toBe(email);
  });

  it("a candidate's key writes none of them on its own record", async () => {
    const candidate = await newCandidateOf(a, "key-write");
    const pb = asCandidate(candidate);
    for (const change of [{ status: "completed" }, { decision: "advance" }, { averageRating: 5 }]) {
      expect([400, 404]).toContain(await statusOf(() => pb.collection("candidates").update(candidate, change)));
    }
    expect(await stored("candidates", candidate)).toMatchObject({ status: "invited", decision: "", averageRating: 0 });
  });
});

describe("the filter oracle on decisions and ratings", () => {
  let target: string;
  let m: Awaited<ReturnType<typeof signUp>>;
  beforeAll(async () => {
    target = (await decidedCandidate("oracle-target")).candidate;
    // M manages X with A's manager (so it may read A's manager's user record), not A's company
    const x = await createCompany(a.manager.pb, "Oracle X (workflow)");
    m = await signUp({ email: uniqueEmail("workflow-oracle-m") });
    const invite = await a.manager.pb.collection("manager_invites").create({ company: x.id, email: m.user.email });
    expect((await acceptInvite(invite.id, m.pb.authStore.token)).status).toBe(200);
  });

  /** [what, the collection listed, a query built around a guess, the true guess, the false guess] */
  const guesses = (): [string, string, (g: string) => Record<string, string>, string, string][] => [
    ["decision = (candidates)", "candidates", (g) => ({ filter: `id = '${target}' && decision = '${g}'` }), "reject", "advance"],
    ["decision != (candidates)", "candidates", (g) => ({ filter: `id = '${target}' && decision != '${g}'` }), "reject", "advance"],
    ["decision !~ (candidates)", "candidates", (g) => ({ filter: `id = '${target}' && decision !~ '${g}'` }), "rej", "adv"],
    ["averageRating >= (candidates)", "candidates", (g) => ({ filter: `id = '${target}' && averageRating >= ${g}` }), "4", "5"],
    ["ratingsCount >= (candidates)", "candidates", (g) => ({ filter: `id = '${target}' && ratingsCount >= ${g}` }), "1", "2"],
    ["decisionBy = (candidates)", "candidates", (g) => ({ filter: `id = '${target}' && decisionBy = '${g}'` }), a.manager.user.id, "nosuchuser0000"],
    ["sort by averageRating (candidates)", "candidates", (g) => ({ filter: `id = '${target}' || id = '${g}'`, sort: "averageRating,id" }), target, "nosuchcandida0"],
    ["candidate.decision (answers)", "answers", (g) => ({ filter: `candidate.decision = '${g}'` }), "reject", "advance"],
    ["candidate.averageRating >= (ratings)", "ratings", (g) => ({ filter: `candidate.averageRating >= ${g}` }), "4", "5"],
    ["answer.candidate.decision (text_answers)", "text_answers", (g) => ({ filter: `answer.candidate.decision = '${g}'` }), "reject", "advance"],
    ["candidates_via_decisionBy.decision (users)", "users", (g) => ({ filter: `id = '${a.manager.user.id}' && candidates_via_decisionBy.decision = '${g}'` }), "reject", "advance"],
    ["candidates_via_decisionBy.averageRating (users)", "users", (g) => ({ filter: `id = '${a.manager.user.id}' && candidates_via_decisionBy.averageRating >= ${g}` }), "4", "5"],
    ["@collection.candidates.decision (users)", "users", (g) => ({ filter: `@collection.candidates.decision != '${g}'` }), "reject", "advance"],
  ];

  it("gives another company's manager identical answers to a true and a false guess", async () => {
    for (const [pb, who] of [
      [b.manager.pb, "B's manager"],
      [m.pb, "a manager sharing another company with A's manager"],
    ] as const) {
      for (const [what, collection, query, truth, lie] of guesses()) {
        const right = await listOutcome(pb, collection, query(truth));
        const wrong = await listOutcome(pb, collection, query(lie));
        expect({ who, what, right }).toEqual({ who, what, right: wrong });
      }
    }
  });

  it("gives the candidate's key identical answers too", async () => {
    const pb = asCandidate(target);
    for (const [what, collection, query, truth, lie] of guesses()) {
      const right = await listOutcome(pb, collection, query(truth));
      const wrong = await listOutcome(pb, collection, query(lie));
      expect({ what, right }).toEqual({ what, right: wrong });
    }
  });

  it("sanity: the job's own manager does tell them apart (the guesses are real)", async () => {
    const [, collection, query, truth, lie] = guesses()[0]!;
    expect((await listOutcome(a.manager.pb, collection, query(truth))).count).toBe(1);
    expect((await listOutcome(a.manager.pb, collection, query(lie))).count).toBe(0);
  });
});
