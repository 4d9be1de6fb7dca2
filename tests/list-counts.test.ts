// Issue 16 point 4: the lists' counts (pocketbase/pb_hooks/lists.pb.js): each job's candidates per status for the jobs
// list in one request, and how many jobs use each question (the questions list reads it as a back-relation expand).
// Who may call the route is in tests/access-matrix.test.ts ("the product's read routes").
import { beforeAll, describe, expect, it } from "vitest";
import { answerText, answerVideo, createJob, createQuestion, newCandidateOf, statusOf, uniqueEmail, world } from "./helpers";

type World = Awaited<ReturnType<typeof world>>;

const countsOf = (w: World, company = w.company.id) =>
  w.manager.pb.send<{ jobs: Record<string, { total: number; invited: number; started: number; completed: number }> }>(
    `/api/screenroom/companies/${company}/job-counts`,
    { method: "GET" },
  );

let w: World;
let other: World;
beforeAll(async () => {
  [w, other] = await Promise.all([world("counts"), world("counts-other")]);
});

describe("GET /api/screenroom/companies/{id}/job-counts", () => {
  it("counts each job's candidates per status, jobs without candidates absent, other companies' never", async () => {
    // w.job: the world's invited candidate, one started, one completed, one more invited
    const started = await newCandidateOf(w, "started");
    await answerText(started, w.text.question.id);
    const completed = await newCandidateOf(w, "completed");
    await answerText(completed, w.text.question.id);
    await answerVideo(completed, w.video.question.id);
    await w.manager.pb.collection("candidates").create({ job: w.job.id, email: uniqueEmail("invited") });
    // a second job with one candidate, a third with none
    const second = await createJob(w.manager.pb, w.company.id, [w.text.question.id]);
    await w.manager.pb.collection("candidates").create({ job: second.id, email: uniqueEmail("second") });
    const empty = await createJob(w.manager.pb, w.company.id, [w.video.question.id]);
    // the other company's candidates are not counted here
    await answerText(await newCandidateOf(other, "elsewhere"), other.text.question.id);

    const { jobs } = await countsOf(w);
    expect(jobs).toEqual({
      [w.job.id]: { total: 4, invited: 2, started: 1, completed: 1 },
      [second.id]: { total: 1, invited: 1, started: 0, completed: 0 },
    });
    expect(jobs[empty.id]).toBeUndefined();
    // the same numbers as the job's own pipeline route
    const pipeline = await w.manager.pb.send(`/api/screenroom/jobs/${w.job.id}/pipeline`, { method: "GET" });
    expect(pipeline).toMatchObject(jobs[w.job.id]!);
  });

  it("answers 404 to a manager for another company's id and for an unknown id", async () => {
    expect(await statusOf(() => countsOf(w, other.company.id))).toBe(404);
    expect(await statusOf(() => countsOf(w, "zzzzzzzzzzzzzzz"))).toBe(404);
  });
});

describe("how many jobs use a question", () => {
  it("is the question's jobs_via_questions back-relation, one list read for the company", async () => {
    const fresh = await createQuestion(w.manager.pb, w.company.id, "text");
    await createJob(w.manager.pb, w.company.id, [fresh.question.id, w.text.question.id]);
    const list = await w.manager.pb.collection("questions").getFullList({
      filter: `company = "${w.company.id}"`,
      expand: "jobs_via_questions",
      fields: "id,expand.jobs_via_questions.id",
    });
    const used = Object.fromEntries(list.map((q) => [q.id, ((q.expand?.jobs_via_questions as unknown[]) ?? []).length]));
    expect(used[fresh.question.id]).toBe(1);
    expect(used[w.text.question.id]).toBeGreaterThanOrEqual(2);
    // another company's manager does not see them through the expand
    const theirs = await other.manager.pb.collection("questions").getFullList({ filter: `company = "${w.company.id}"`, expand: "jobs_via_questions" });
    expect(theirs).toEqual([]);
  });
});
