// Issue 15's review workflow as the server keeps it (server/internal/pipeline, server/internal/review):
// candidates' progress from their answers and their job's questions, the fields only the server writes, the
// ratings' averages, decisions and the pipeline's counts. Read back as a manager or a superuser, as stored.
import type PocketBase from "pocketbase";
import type { RecordModel } from "pocketbase";
import { beforeAll, describe, expect, it } from "vitest";
import { answerText, answerVideo, createJob, createQuestion, errorOf, newCandidateOf, randomId, signUp, uniqueEmail, world } from "./helpers";
import { acceptInvite, admin, batchFailure, expectFieldError } from "./support";

type World = Awaited<ReturnType<typeof world>>;

const stored = async (id: string) => (await admin()).collection("candidates").getOne(id);

/** The progress fields of a stored candidate. */
async function progressOf(id: string) {
  const c = await stored(id);
  return { status: c.status, answeredCount: c.answeredCount, startedAt: c.startedAt, completedAt: c.completedAt };
}

/** A second manager of the world's company (invited, accepted), signed in. */
async function colleagueOf(x: World) {
  const colleague = await signUp({ email: uniqueEmail("colleague") });
  const invite = await x.manager.pb.collection("manager_invites").create({ company: x.company.id, email: colleague.user.email });
  expect((await acceptInvite(invite.id, colleague.pb.authStore.token)).status).toBe(200);
  return colleague;
}

let w: World;
beforeAll(async () => {
  w = await world("workflow");
});

describe("a candidate's progress", () => {
  it("starts invited with nothing answered, rated or decided", async () => {
    const created = await w.manager.pb.collection("candidates").create({ job: w.job.id, email: uniqueEmail("fresh") });
    expect(created).toMatchObject({ status: "invited", answeredCount: 0, startedAt: "", completedAt: "", averageRating: 0, ratingsCount: 0, decision: "", decisionBy: "", decisionAt: "" });
    expect(await stored(created.id)).toMatchObject({ status: "invited", answeredCount: 0, startedAt: "", completedAt: "" });
  });

  it("follows the answers stored through the answers route, a video answer and then a text answer", async () => {
    const candidate = await newCandidateOf(w, "route");
    const video = await answerVideo(candidate, w.video.question.id);
    expect(await progressOf(candidate)).toEqual({ status: "started", answeredCount: 1, startedAt: video.answer.created, completedAt: "" });

    const text = await answerText(candidate, w.text.question.id);
    const done = await progressOf(candidate);
    expect(done).toMatchObject({ status: "completed", answeredCount: 2, startedAt: video.answer.created });
    expect(done.completedAt >= text.answer.created).toBe(true);
    // the manager's pipeline reads the same
    expect(await w.manager.pb.collection("candidates").getOne(candidate)).toMatchObject(done);
  });

  it("follows a text answer first, then a video answer", async () => {
    const candidate = await newCandidateOf(w, "text-first");
    const text = await answerText(candidate, w.text.question.id);
    expect(await progressOf(candidate)).toEqual({ status: "started", answeredCount: 1, startedAt: text.answer.created, completedAt: "" });
    await answerVideo(candidate, w.video.question.id);
    expect(await progressOf(candidate)).toMatchObject({ status: "completed", answeredCount: 2, startedAt: text.answer.created });
  });

  it("goes back when answers are deleted", async () => {
    const candidate = await newCandidateOf(w, "deleted");
    const video = await answerVideo(candidate, w.video.question.id);
    const text = await answerText(candidate, w.text.question.id);
    await w.manager.pb.collection("answers").delete(text.answer.id);
    expect(await progressOf(candidate)).toEqual({ status: "started", answeredCount: 1, startedAt: video.answer.created, completedAt: "" });
    await w.manager.pb.collection("answers").delete(video.answer.id);
    expect(await progressOf(candidate)).toEqual({ status: "invited", answeredCount: 0, startedAt: "", completedAt: "" });
  });

  it("follows answers a superuser stores through the records API and the batch API", async () => {
    const su = await admin();
    const candidate = await newCandidateOf(w, "superuser");
    const first = await su.collection("answers").create({ id: randomId(), candidate, question: w.video.question.id });
    expect(await progressOf(candidate)).toMatchObject({ status: "started", answeredCount: 1, startedAt: first.created });

    const batch = su.createBatch();
    batch.collection("answers").create({ id: randomId(), candidate, question: w.text.question.id });
    await batch.send();
    const done = await progressOf(candidate);
    expect(done).toMatchObject({ status: "completed", answeredCount: 2, startedAt: first.created });
    expect(done.completedAt).not.toBe("");
  });

  it("follows the job's questions: a question added, taken out again, and one the candidate answered removed", async () => {
    const x = await world("workflow-questions");
    const pb = x.manager.pb;
    const complete = x.candidate.id;
    await answerVideo(complete, x.video.question.id);
    await answerText(complete, x.text.question.id);
    const half = await newCandidateOf(x, "half");
    await answerVideo(half, x.video.question.id);
    const none = await newCandidateOf(x, "none");
    const completedAt = (await progressOf(complete)).completedAt;
    expect(completedAt).not.toBe("");

    const extra = await createQuestion(pb, x.company.id, "text");
    await pb.collection("jobs").update(x.job.id, { questions: [x.video.question.id, x.text.question.id, extra.question.id] });
    expect(await progressOf(complete)).toMatchObject({ status: "started", answeredCount: 2, completedAt: "" });
    expect(await progressOf(half)).toMatchObject({ status: "started", answeredCount: 1, completedAt: "" });
    expect(await progressOf(none)).toMatchObject({ status: "invited", answeredCount: 0 });

    await pb.collection("jobs").update(x.job.id, { questions: [x.video.question.id, x.text.question.id] });
    const again = await progressOf(complete);
    expect(again).toMatchObject({ status: "completed", answeredCount: 2 });
    // it became complete once more, now
    expect(again.completedAt > completedAt).toBe(true);

    // the question `half` did not answer leaves the job: every question of it is now answered
    await pb.collection("jobs").update(x.job.id, { questions: [x.video.question.id] });
    expect(await progressOf(half)).toMatchObject({ status: "completed", answeredCount: 1 });
    expect(await progressOf(complete)).toMatchObject({ status: "completed", answeredCount: 1 });
    expect(await progressOf(none)).toMatchObject({ status: "invited", answeredCount: 0, completedAt: "" });

    // a question deleted is taken out of the job by PocketBase: its candidates follow too
    const later = await createQuestion(pb, x.company.id, "video");
    await pb.collection("jobs").update(x.job.id, { questions: [x.video.question.id, later.question.id] });
    expect(await progressOf(half)).toMatchObject({ status: "started", answeredCount: 1, completedAt: "" });
    await pb.collection("questions").delete(later.question.id);
    expect((await pb.collection("jobs").getOne(x.job.id)).questions).toEqual([x.video.question.id]);
    expect(await progressOf(half)).toMatchObject({ status: "completed", answeredCount: 1 });
  });

  it("keeps the server's fields as stored when a manager edits the candidate", async () => {
    const candidate = await newCandidateOf(w, "edited");
    await answerVideo(candidate, w.video.question.id);
    const before = await progressOf(candidate);
    const edited = await w.manager.pb.collection("candidates").update(candidate, { email: uniqueEmail("edited-again") });
    expect(edited).toMatchObject(before);
    expect(await progressOf(candidate)).toEqual(before);
  });
});

describe("the server's fields of a candidate", () => {
  const SERVER_WRITES: [string, unknown][] = [
    ["status", "completed"],
    ["answeredCount", 2],
    ["startedAt", "2024-01-01 10:00:00.000Z"],
    ["completedAt", "2024-01-01 10:00:00.000Z"],
    ["averageRating", 5],
    ["ratingsCount", 3],
    ["decision", "advance"],
    ["decisionBy", "placeholder"],
    ["decisionAt", "2024-01-01 10:00:00.000Z"],
  ];
  const valueFor = (field: string, value: unknown) => (field === "decisionBy" ? w.manager.user.id : value);

  it.each(SERVER_WRITES)("%s is refused on create and update through the records API, on that field", async (field, value) => {
    const pb = w.manager.pb;
    await expectFieldError(() => pb.collection("candidates").create({ job: w.job.id, email: uniqueEmail("forged"), [field]: valueFor(field, value) }), field);
    const candidate = await newCandidateOf(w, "forged-update");
    const before = await stored(candidate);
    await expectFieldError(() => pb.collection("candidates").update(candidate, { [field]: valueFor(field, value) }), field);
    expect((await stored(candidate)).updated).toBe(before.updated);
  });

  it.each(SERVER_WRITES)("%s is refused in a batch, on that field", async (field, value) => {
    const pb = w.manager.pb;
    const candidate = await newCandidateOf(w, "forged-batch");
    const create = pb.createBatch();
    create.collection("candidates").create({ job: w.job.id, email: uniqueEmail("forged-batch-new"), [field]: valueFor(field, value) });
    const createErr = await errorOf(() => create.send());
    expect(createErr.status).toBe(400);
    expect(batchFailure(createErr).response.data[field]).toBeDefined();

    const update = pb.createBatch();
    update.collection("candidates").update(candidate, { [field]: valueFor(field, value) });
    const updateErr = await errorOf(() => update.send());
    expect(updateErr.status).toBe(400);
    expect(batchFailure(updateErr).response.data[field]).toBeDefined();
    expect(await stored(candidate)).toMatchObject({ status: "invited", answeredCount: 0, decision: "", averageRating: 0 });
  });

  it("is refused through a modifier too (answeredCount+)", async () => {
    const candidate = await newCandidateOf(w, "modifier");
    await expectFieldError(() => w.manager.pb.collection("candidates").update(candidate, { "answeredCount+": 1 }), "answeredCount");
    expect((await stored(candidate)).answeredCount).toBe(0);
  });

  it("may be sent unchanged: a client sending the whole record back only changes what changed", async () => {
    const candidate = await w.manager.pb.collection("candidates").getOne(await newCandidateOf(w, "whole"));
    const { id, collectionId, collectionName, created, updated, ...fields } = candidate as RecordModel;
    void [id, collectionId, collectionName, created, updated];
    const email = uniqueEmail("whole-changed");
    expect(await w.manager.pb.collection("candidates").update(candidate.id, { ...fields, email })).toMatchObject({ email, status: "invited" });
  });

  it("is written by a superuser's tools", async () => {
    const candidate = await newCandidateOf(w, "superuser-write");
    await (await admin()).collection("candidates").update(candidate, { decision: "hold", averageRating: 4.5 });
    expect(await stored(candidate)).toMatchObject({ decision: "hold", averageRating: 4.5 });
  });
});

const decide = (pb: PocketBase, candidate: string, decision: unknown) =>
  pb.send<RecordModel>(`/api/screenroom/candidates/${encodeURIComponent(candidate)}/decision`, { method: "POST", body: { decision } });

const pipeline = (pb: PocketBase, job: string) => pb.send<PipelineCounts>(`/api/screenroom/jobs/${encodeURIComponent(job)}/pipeline`, { method: "GET" });

interface PipelineCounts {
  total: number;
  invited: number;
  started: number;
  completed: number;
  decisions: { advance: number; hold: number; reject: number; none: number };
  byStatus: Record<"invited" | "started" | "completed", { advance: number; hold: number; reject: number; none: number }>;
}

/** Each status by decision (issue 20), all zero but the given ones. */
const byStatus = (counts: Partial<Record<"invited" | "started" | "completed", Partial<PipelineCounts["decisions"]>>> = {}) => {
  const zero = { advance: 0, hold: 0, reject: 0, none: 0 };
  return { invited: { ...zero, ...counts.invited }, started: { ...zero, ...counts.started }, completed: { ...zero, ...counts.completed } };
};

describe("POST /api/screenroom/candidates/{id}/decision", () => {
  it("sets, changes and clears the decision, with who set it and when", async () => {
    const x = await world("decisions");
    const colleague = await colleagueOf(x);
    const candidate = x.candidate.id;

    const before = new Date().toISOString().replace("T", " ");
    const set = await decide(x.manager.pb, candidate, "advance");
    expect(set).toMatchObject({ id: candidate, decision: "advance", decisionBy: x.manager.user.id, status: "invited" });
    expect(set.decisionAt >= before.slice(0, 19)).toBe(true);
    expect(await stored(candidate)).toMatchObject({ decision: "advance", decisionBy: x.manager.user.id, decisionAt: set.decisionAt });

    // the same decision again changes nothing: who set it and when stay
    expect(await decide(colleague.pb, candidate, "advance")).toMatchObject({ decision: "advance", decisionBy: x.manager.user.id, decisionAt: set.decisionAt });

    const changed = await decide(colleague.pb, candidate, "reject");
    expect(changed).toMatchObject({ decision: "reject", decisionBy: colleague.user.id });
    expect(changed.decisionAt >= set.decisionAt).toBe(true);
    expect(await stored(candidate)).toMatchObject({ decision: "reject", decisionBy: colleague.user.id, decisionAt: changed.decisionAt });

    const held = await decide(x.manager.pb, candidate, "hold");
    expect(held).toMatchObject({ decision: "hold", decisionBy: x.manager.user.id });

    const cleared = await decide(colleague.pb, candidate, "");
    expect(cleared).toMatchObject({ decision: "", decisionBy: "", decisionAt: "" });
    expect(await stored(candidate)).toMatchObject({ decision: "", decisionBy: "", decisionAt: "" });
  });

  it("keeps the candidate's progress and rating as they are", async () => {
    const candidate = await newCandidateOf(w, "decided-progress");
    await answerVideo(candidate, w.video.question.id);
    const progress = await progressOf(candidate);
    const decided = await decide(w.manager.pb, candidate, "hold");
    expect(decided).toMatchObject(progress);
    expect(await progressOf(candidate)).toEqual(progress);
  });

  it.each([["maybe"], [null], [3], [["advance"]]])("refuses %j on the decision field", async (decision) => {
    const candidate = await newCandidateOf(w, "bad-decision");
    const err = await errorOf(() => decide(w.manager.pb, candidate, decision));
    expect(err.status).toBe(400);
    expect(err.response.data.decision).toBeDefined();
    expect((await stored(candidate)).decision).toBe("");
  });

  it("answers another company's manager, and an unknown id, with the same 404, whatever the body", async () => {
    const other = await world("decisions-other");
    const candidate = await newCandidateOf(w, "not-theirs");
    const theirs = await errorOf(() => decide(other.manager.pb, candidate, "advance"));
    const unknown = await errorOf(() => decide(other.manager.pb, "nosuchcandidat0", "advance"));
    const badBody = await errorOf(() => decide(other.manager.pb, candidate, "maybe"));
    expect(theirs.status).toBe(404);
    expect(theirs.response).toEqual(unknown.response);
    expect(badBody.status).toBe(404);
    expect(badBody.response).toEqual(unknown.response);
    expect((await stored(candidate)).decision).toBe("");
  });
});

describe("GET /api/screenroom/jobs/{id}/pipeline", () => {
  it("counts the job's candidates per status and per decision", async () => {
    const x = await world("counts");
    const empty = await pipeline(x.manager.pb, x.job.id);
    expect(empty).toEqual({
      total: 1,
      invited: 1,
      started: 0,
      completed: 0,
      decisions: { advance: 0, hold: 0, reject: 0, none: 1 },
      byStatus: byStatus({ invited: { none: 1 } }),
    });

    const started = await newCandidateOf(x, "counts-started");
    await answerText(started, x.text.question.id);
    const completed = await newCandidateOf(x, "counts-completed");
    await answerText(completed, x.text.question.id);
    await answerVideo(completed, x.video.question.id);
    await newCandidateOf(x, "counts-invited");
    await decide(x.manager.pb, completed, "advance");
    await decide(x.manager.pb, started, "reject");
    await decide(x.manager.pb, x.candidate.id, "hold");
    expect(await pipeline(x.manager.pb, x.job.id)).toEqual({
      total: 4,
      invited: 2,
      started: 1,
      completed: 1,
      decisions: { advance: 1, hold: 1, reject: 1, none: 1 },
      // the page totals of a status and a decision chosen together (issue 20)
      byStatus: byStatus({ invited: { hold: 1, none: 1 }, started: { reject: 1 }, completed: { advance: 1 } }),
    });

    // another job of the same company counts apart
    const otherJob = await createJob(x.manager.pb, x.company.id, [x.text.question.id]);
    expect(await pipeline(x.manager.pb, otherJob.id)).toEqual({
      total: 0,
      invited: 0,
      started: 0,
      completed: 0,
      decisions: { advance: 0, hold: 0, reject: 0, none: 0 },
      byStatus: byStatus(),
    });
  });

  it("answers another company's manager, and an unknown id, with the same 404", async () => {
    const other = await world("counts-other");
    const theirs = await errorOf(() => pipeline(other.manager.pb, w.job.id));
    const unknown = await errorOf(() => pipeline(other.manager.pb, "nosuchjob000000"));
    expect(theirs.status).toBe(404);
    expect(theirs.response).toEqual(unknown.response);
  });
});

describe("ratings", () => {
  /** The candidate's rating fields, as stored. */
  const ratingOf = async (candidate: string) => {
    const c = await stored(candidate);
    return { averageRating: c.averageRating, ratingsCount: c.ratingsCount };
  };

  it("keep the candidate's average over its answers of each answer's average, with two managers", async () => {
    const x = await world("ratings");
    const colleague = await colleagueOf(x);
    const candidate = x.candidate.id;
    const video = await answerVideo(candidate, x.video.question.id);
    const text = await answerText(candidate, x.text.question.id);
    const rate = (pb: PocketBase, manager: string, answer: string, stars: number) =>
      pb.collection("ratings").create({ answer, candidate, manager, stars });
    expect(await ratingOf(candidate)).toEqual({ averageRating: 0, ratingsCount: 0 });

    const mine = await rate(x.manager.pb, x.manager.user.id, video.answer.id, 5);
    expect(await ratingOf(candidate)).toEqual({ averageRating: 5, ratingsCount: 1 });
    const theirs = await rate(colleague.pb, colleague.user.id, video.answer.id, 4);
    // one answer rated: its average
    expect(await ratingOf(candidate)).toEqual({ averageRating: 4.5, ratingsCount: 2 });
    const myText = await rate(x.manager.pb, x.manager.user.id, text.answer.id, 3);
    // (4.5 + 3) / 2, not (5 + 4 + 3) / 3
    expect(await ratingOf(candidate)).toEqual({ averageRating: 3.75, ratingsCount: 3 });

    await colleague.pb.collection("ratings").update(theirs.id, { stars: 2 });
    expect(await ratingOf(candidate)).toEqual({ averageRating: 3.25, ratingsCount: 3 });
    await colleague.pb.collection("ratings").update(theirs.id, { stars: 4 });
    await rate(colleague.pb, colleague.user.id, text.answer.id, 4);
    // (4.5 + 3.5) / 2
    expect(await ratingOf(candidate)).toEqual({ averageRating: 4, ratingsCount: 4 });

    await x.manager.pb.collection("ratings").delete(myText.id);
    // (4.5 + 4) / 2
    expect(await ratingOf(candidate)).toEqual({ averageRating: 4.25, ratingsCount: 3 });
    // the manager reads the same in the pipeline
    expect(await x.manager.pb.collection("candidates").getOne(candidate)).toMatchObject({ averageRating: 4.25, ratingsCount: 3 });

    await x.manager.pb.collection("ratings").delete(mine.id);
    await colleague.pb.collection("ratings").delete(theirs.id);
    // only the colleague's 4 on the text answer is left
    expect(await ratingOf(candidate)).toEqual({ averageRating: 4, ratingsCount: 1 });

    // an answer deleted takes its ratings with it
    await x.manager.pb.collection("answers").delete(text.answer.id);
    expect(await ratingOf(candidate)).toEqual({ averageRating: 0, ratingsCount: 0 });
  });

  it("round the average to 2 decimals", async () => {
    const x = await world("ratings-round");
    const colleague = await colleagueOf(x);
    const third = await colleagueOf(x);
    const { answer } = await answerText(x.candidate.id, x.text.question.id);
    for (const [pb, id, stars] of [
      [x.manager.pb, x.manager.user.id, 5],
      [colleague.pb, colleague.user.id, 4],
      [third.pb, third.user.id, 4],
    ] as const) {
      await pb.collection("ratings").create({ answer: answer.id, candidate: x.candidate.id, manager: id, stars });
    }
    expect(await ratingOf(x.candidate.id)).toEqual({ averageRating: 4.33, ratingsCount: 3 });
  });

  it("are one per manager and answer: a second is refused on the answer field", async () => {
    const candidate = await newCandidateOf(w, "rated-twice");
    const { answer } = await answerText(candidate, w.text.question.id);
    const body = { answer: answer.id, candidate, manager: w.manager.user.id, stars: 3 };
    await w.manager.pb.collection("ratings").create(body);
    const error = await expectFieldError(() => w.manager.pb.collection("ratings").create({ ...body, stars: 5 }), "answer");
    // the product's words, not PocketBase's "Value must be unique" on both fields
    expect(error).toEqual({ code: "validation_not_unique", message: "You have already rated this answer." });
    expect(await ratingOf(candidate)).toEqual({ averageRating: 3, ratingsCount: 1 });
  });

  it.each([[0], [6], [2.5], [-1], ["four"]])("refuse %j stars on the stars field", async (stars) => {
    const candidate = await newCandidateOf(w, "bad-stars");
    const { answer } = await answerText(candidate, w.text.question.id);
    const error = await expectFieldError(() => w.manager.pb.collection("ratings").create({ answer: answer.id, candidate, manager: w.manager.user.id, stars }), "stars");
    expect(error.message).toBe("Choose 1 to 5 stars.");
    expect(await ratingOf(candidate)).toEqual({ averageRating: 0, ratingsCount: 0 });
  });

  it("refuse a candidate that is not the answer's, from a manager and from a superuser (on the candidate field)", async () => {
    const candidate = await newCandidateOf(w, "rated-answer");
    const other = await newCandidateOf(w, "rated-other");
    const { answer } = await answerText(candidate, w.text.question.id);
    const body = { answer: answer.id, candidate: other, manager: w.manager.user.id, stars: 3 };
    expect((await errorOf(() => w.manager.pb.collection("ratings").create(body))).status).toBe(400);
    expect((await expectFieldError(async () => (await admin()).collection("ratings").create(body), "candidate")).message).toBe("This answer is not this candidate's.");
    expect(await ratingOf(other)).toEqual({ averageRating: 0, ratingsCount: 0 });
    expect(await ratingOf(candidate)).toEqual({ averageRating: 0, ratingsCount: 0 });
  });
});

describe("comments", () => {
  const comment = (text: unknown, candidate = w.candidate.id) =>
    w.manager.pb.collection("comments").create({ candidate, author: w.manager.user.id, text });

  it("are stored trimmed, on create and on update", async () => {
    const made = await comment("  Strong answer on testing.\n\n");
    expect(made.text).toBe("Strong answer on testing.");
    expect((await (await admin()).collection("comments").getOne(made.id)).text).toBe("Strong answer on testing.");
    const edited = await w.manager.pb.collection("comments").update(made.id, { text: "\tEdited.  " });
    expect(edited.text).toBe("Edited.");
    expect((await (await admin()).collection("comments").getOne(made.id)).text).toBe("Edited.");
  });

  it.each([[""], ["   "], ["\n\t \n"], ["\u00a0\u2003"]])("refuse %j on the text field", async (text) => {
    const error = await expectFieldError(() => comment(text), "text");
    expect(error.message).toBe("Please write a comment.");
  });

  it("refuse whitespace on update, keeping the comment", async () => {
    const made = await comment("Keep me");
    await expectFieldError(() => w.manager.pb.collection("comments").update(made.id, { text: "    " }), "text");
    expect((await (await admin()).collection("comments").getOne(made.id)).text).toBe("Keep me");
  });

  it("hold 1 to 2,000 characters, counted after trimming", async () => {
    expect((await comment("k")).text).toBe("k");
    expect((await comment(`  ${"a".repeat(2000)}  `)).text).toHaveLength(2000);
    // 2,000 characters outside the Basic Multilingual Plane (4,000 UTF-16 units)
    expect(Array.from((await comment("😀".repeat(2000))).text)).toHaveLength(2000);
    const error = await expectFieldError(() => comment("a".repeat(2001)), "text");
    expect(error.message).toBe("A comment must be at most 2,000 characters.");
  });
});
