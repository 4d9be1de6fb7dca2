// Issue 16 point 4: the lists' counts (server/internal/jobs/job_counts.go, from job_status_counts: migration
// 1733200400_job_status_counts.js): each job's candidates per status for the jobs
// list in one request, and how many jobs use each question (the questions list reads it as a back-relation expand).
// Who may call the route is in tests/access-matrix.test.ts ("the product's read routes").
import { beforeAll, describe, expect, it } from "vitest";
import { answerText, answerVideo, createCompany, createJob, createQuestion, newCandidateOf, pbUrl, statusOf, superuser, uniqueEmail, world } from "./helpers";

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

  it("follows the candidates as they change: a deleted candidate, a moved status, a deleted job", async () => {
    const job = await createJob(w.manager.pb, w.company.id, [w.text.question.id]);
    const first = await w.manager.pb.collection("candidates").create({ job: job.id, email: uniqueEmail("follow-1") });
    const second = await w.manager.pb.collection("candidates").create({ job: job.id, email: uniqueEmail("follow-2") });
    expect((await countsOf(w)).jobs[job.id]).toEqual({ total: 2, invited: 2, started: 0, completed: 0 });

    // a status the server sets, by whatever write (here a superuser's)
    await (await superuser()).collection("candidates").update(second.id, { status: "started" });
    expect((await countsOf(w)).jobs[job.id]).toEqual({ total: 2, invited: 1, started: 1, completed: 0 });
    await w.manager.pb.collection("candidates").delete(first.id);
    expect((await countsOf(w)).jobs[job.id]).toEqual({ total: 1, invited: 0, started: 1, completed: 0 });
    // the same numbers as the job's own pipeline route, which counts the candidates themselves
    const pipeline = await w.manager.pb.send(`/api/screenroom/jobs/${job.id}/pipeline`, { method: "GET" });
    expect(pipeline).toMatchObject({ total: 1, invited: 0, started: 1, completed: 0 });

    // a job deleted with its candidates (the cascade) leaves nothing behind
    await (await superuser()).collection("jobs").delete(job.id);
    expect((await countsOf(w)).jobs[job.id]).toBeUndefined();
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

// The questions list's read (issue 20 point 3, server/internal/questions/questions_list.go): what the records API's
// list with the kinds expanded answers, for the company's managers only.
describe("GET /api/screenroom/companies/{id}/questions", () => {
  const questionsOf = (pb: typeof w.manager.pb, company: string) =>
    pb.send<{ totalItems: number; items: Record<string, unknown>[] }>(`/api/screenroom/companies/${company}/questions`, { method: "GET" });

  it("answers the records API's questions, newest first, each with its kind expanded", async () => {
    await createQuestion(w.manager.pb, w.company.id, "video");
    await createQuestion(w.manager.pb, w.company.id, "text");
    const mine = await questionsOf(w.manager.pb, w.company.id);
    const theirs = await w.manager.pb.collection("questions").getFullList({
      filter: `company = "${w.company.id}"`,
      sort: "-created,id",
      expand: "video_questions_via_question,text_questions_via_question",
    });
    expect(mine.totalItems).toBe(theirs.length);
    expect(mine.items).toEqual(JSON.parse(JSON.stringify(theirs)));
    const kinds = mine.items.map((q) => Object.keys((q.expand ?? {}) as object));
    expect(kinds.every((keys) => keys.length === 1)).toBe(true);
  });

  it("answers 404 to another company's manager and for an unknown id", async () => {
    expect(await statusOf(() => questionsOf(other.manager.pb, w.company.id))).toBe(404);
    expect(await statusOf(() => questionsOf(w.manager.pb, "zzzzzzzzzzzzzzz"))).toBe(404);
  });
});

// The jobs list's read (issue 20 point 3, server/internal/jobs/jobs_list.go): the records API's full list of the
// company's jobs, newest first, less the two long texts no list shows, for the company's managers only.
describe("GET /api/screenroom/companies/{id}/jobs", () => {
  const jobsOf = (pb: typeof w.manager.pb, company: string) =>
    pb.send<Record<string, unknown>[]>(`/api/screenroom/companies/${company}/jobs`, { method: "GET" });

  it("answers the records API's jobs, newest first, without description and welcome message", async () => {
    const questions = [w.video.question.id, w.text.question.id];
    const archived = await createJob(w.manager.pb, w.company.id, questions);
    await w.manager.pb.collection("jobs").update(archived.id, { archived: true, welcomeMessage: "Welcome aboard" });
    await createJob(w.manager.pb, w.company.id, questions.slice(1));
    const mine = await jobsOf(w.manager.pb, w.company.id);
    const theirs = await w.manager.pb.collection("jobs").getFullList({ filter: `company = "${w.company.id}"`, sort: "-created,id" });
    expect(mine.length).toBeGreaterThanOrEqual(3);
    const listed = JSON.parse(JSON.stringify(theirs)).map((job: Record<string, unknown>) => {
      const rest = { ...job };
      delete rest.description;
      delete rest.welcomeMessage;
      return rest;
    });
    expect(mine).toEqual(listed);
    expect(mine.find((job) => job.id === archived.id)).toMatchObject({ archived: true });
    expect(mine.every((job) => !("description" in job) && !("welcomeMessage" in job))).toBe(true);
  });

  // the route keeps each company's last list while its jobs_list_versions number stands (migration 1733200600)
  it("answers every write to a job at the next read, whoever writes it", async () => {
    const company = await createCompany(w.manager.pb, "Kept list");
    const { question } = await createQuestion(w.manager.pb, company.id, "text");
    const read = async () => (await jobsOf(w.manager.pb, company.id)).map((job) => `${job.title}${job.closedAt ? " (closed)" : ""}`);
    expect(await read()).toEqual([]);
    const first = await createJob(w.manager.pb, company.id, [question.id]);
    expect(await read()).toEqual(["Support engineer"]);
    await w.manager.pb.collection("jobs").update(first.id, { title: "Night support" });
    expect(await read()).toEqual(["Night support"]);
    await w.manager.pb.send(`/api/screenroom/jobs/${first.id}/close`, { method: "POST" });
    expect(await read()).toEqual(["Night support (closed)"]);
    await (await superuser()).collection("jobs").update(first.id, { title: "Edited by the superuser" });
    expect(await read()).toEqual(["Edited by the superuser (closed)"]);
    const second = await createJob(w.manager.pb, company.id, [question.id]);
    expect((await jobsOf(w.manager.pb, company.id)).map((job) => job.id)).toEqual([second.id, first.id]);
    await w.manager.pb.collection("jobs").delete(first.id);
    expect((await jobsOf(w.manager.pb, company.id)).map((job) => job.id)).toEqual([second.id]);
    // another company's write leaves this list as it was, and its own list answers it
    await createJob(other.manager.pb, other.company.id, [other.text.question.id]);
    expect((await jobsOf(w.manager.pb, company.id)).map((job) => job.id)).toEqual([second.id]);
    expect((await jobsOf(other.manager.pb, other.company.id)).length).toBeGreaterThanOrEqual(2);
  });

  // the kept lists go gzipped to a client that accepts it (every browser), the same JSON as without
  it("answers the list and its counts gzipped when asked, the same JSON as plain", async () => {
    const company = await createCompany(w.manager.pb, "Many jobs");
    const { question } = await createQuestion(w.manager.pb, company.id, "text");
    // past 1 KB each: 16 jobs, a candidate each
    for (let i = 0; i < 16; i++) {
      const job = await createJob(w.manager.pb, company.id, [question.id]);
      await w.manager.pb.collection("candidates").create({ job: job.id, email: uniqueEmail(`gz-${i}`) });
    }
    for (const path of [`/api/screenroom/companies/${company.id}/jobs`, `/api/screenroom/companies/${company.id}/job-counts`]) {
      const read = (encoding: string) => fetch(pbUrl() + path, { headers: { authorization: w.manager.pb.authStore.token, "accept-encoding": encoding } });
      const [gzipped, plain, refused] = await Promise.all([read("gzip, deflate, br"), read("identity"), read("gzip;q=0, deflate")]);
      expect([gzipped.headers.get("content-encoding"), plain.headers.get("content-encoding"), refused.headers.get("content-encoding")]).toEqual(["gzip", null, null]);
      expect(gzipped.headers.get("vary")).toMatch(/Accept-Encoding/);
      const body = await plain.json();
      expect(await gzipped.json()).toEqual(body);
      expect(await refused.json()).toEqual(body);
    }
  });

  it("answers an empty list for a company without jobs, and 404 to another company's manager and for an unknown id", async () => {
    const empty = await createCompany(w.manager.pb, "No jobs yet");
    expect(await jobsOf(w.manager.pb, empty.id)).toEqual([]);
    expect(await statusOf(() => jobsOf(other.manager.pb, w.company.id))).toBe(404);
    expect(await statusOf(() => jobsOf(w.manager.pb, "zzzzzzzzzzzzzzz"))).toBe(404);
  });
});
