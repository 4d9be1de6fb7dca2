// The manager screens' read routes in the Go main (issue 20 point 3) from an attacker's side: a page of a job's
// pipeline (GET /api/screenroom/jobs/{id}/candidates, server/internal/pipeline/pipeline_page.go), the questions list
// (GET /api/screenroom/companies/{id}/questions, server/internal/questions/questions_list.go) and the jobs list
// (GET /api/screenroom/companies/{id}/jobs, server/internal/jobs/jobs_list.go). Another company's manager, a
// candidate's key and a visitor learn nothing (an unverified account: tests/access-matrix.test.ts), not even whether the job or company exists
// (the same 404 body as for an unknown id); no query parameter reaches another job's candidates, a hidden field, or
// SQL. What they return is proved in tests/pipeline-page.test.ts and tests/list-counts.test.ts.
import { beforeAll, describe, expect, it } from "vitest";
import type PocketBase from "pocketbase";
import { anonymous, asCandidate, keyOf, newCandidateOf, refusalBody, world } from "../helpers";

type World = Awaited<ReturnType<typeof world>>;
type Page = { totalItems: number; items: Record<string, unknown>[] };

const pipelinePage = (pb: PocketBase, job: string, query: Record<string, string> = {}) =>
  pb.send<Page>(`/api/screenroom/jobs/${job}/candidates`, { method: "GET", query });
const questions = (pb: PocketBase, company: string) => pb.send<Page>(`/api/screenroom/companies/${company}/questions`, { method: "GET" });
const jobs = (pb: PocketBase, company: string, query: Record<string, string> = {}) =>
  pb.send<Record<string, unknown>[]>(`/api/screenroom/companies/${company}/jobs`, { method: "GET", query });

let a: World;
let b: World;
beforeAll(async () => {
  [a, b] = await Promise.all([world("reads-attack-a"), world("reads-attack-b")]);
  await newCandidateOf(a, "listed");
});

describe("the manager read routes, attacked", () => {
  it("answer another company's manager, a candidate and a visitor as they answer an unknown id", async () => {
    const outsiders = [b.manager.pb, asCandidate(a.candidate.id), anonymous()];
    const unknownJob = await refusalBody(() => pipelinePage(b.manager.pb, "zzzzzzzzzzzzzzz"));
    const unknownCompany = await refusalBody(() => questions(b.manager.pb, "zzzzzzzzzzzzzzz"));
    const unknownJobs = await refusalBody(() => jobs(b.manager.pb, "zzzzzzzzzzzzzzz"));
    expect(unknownJob.status).toBe(404);
    expect(unknownCompany.status).toBe(404);
    expect(unknownJobs.status).toBe(404);
    for (const pb of outsiders) {
      expect(await refusalBody(() => pipelinePage(pb, a.job.id))).toEqual(unknownJob);
      expect(await refusalBody(() => questions(pb, a.company.id))).toEqual(unknownCompany);
      expect(await refusalBody(() => jobs(pb, a.company.id))).toEqual(unknownJobs);
    }
  });

  it("a manager's own parameters reach no other job, no hidden field and no SQL", async () => {
    const own = await pipelinePage(a.manager.pb, a.job.id);
    expect(own.totalItems).toBe(2);
    const attempts: Record<string, string>[] = [
      { q: "%" },
      { q: "' OR 1=1 --" },
      { status: "invited' OR job != '" },
      { decision: "none' OR 1=1 --" },
      { sort: "secret" },
      { sort: "(SELECT secret FROM candidates LIMIT 1)" },
      { dir: "asc; DELETE FROM candidates" },
      { job: b.job.id, filter: `job = "${b.job.id}"`, expand: "job,decisionBy" },
      { page: "0", perPage: "-5" },
    ];
    for (const query of attempts) {
      const page = await pipelinePage(a.manager.pb, a.job.id, query);
      const label = JSON.stringify(query);
      expect(page.totalItems, label).toBeLessThanOrEqual(own.totalItems);
      for (const row of page.items) {
        expect(Object.keys(row), label).not.toContain("secret");
        expect(String(row.email), label).toMatch(/reads-attack-a|listed/);
      }
    }
    // PocketBase's `fields` picker works on every JSON answer: it picks from what the route gives, never adds to it
    const key = (await keyOf(a.candidate.id))!;
    for (const fields of ["secret", "items.secret,items.email", "*,items.expand.job"]) {
      const picked = await pipelinePage(a.manager.pb, a.job.id, { fields });
      expect(JSON.stringify(picked), fields).not.toContain(key);
      expect(JSON.stringify(picked), fields).not.toContain(b.job.id);
    }
    // B's candidates are where they were
    expect((await pipelinePage(b.manager.pb, b.job.id)).totalItems).toBe(1);
  });

  it("the jobs list's parameters reach no other company's jobs and no long text", async () => {
    const own = await jobs(a.manager.pb, a.company.id);
    expect(own.map((job) => job.id)).toEqual([a.job.id]);
    const attempts: Record<string, string>[] = [
      { filter: `company = "${b.company.id}"` },
      { company: b.company.id },
      { expand: "company,questions", fields: "*,description,expand" },
      { sort: "(SELECT secret FROM candidates LIMIT 1)" },
    ];
    for (const query of attempts) {
      expect(await jobs(a.manager.pb, a.company.id, query), JSON.stringify(query)).toEqual(own);
    }
    expect(JSON.stringify(own)).not.toContain(String(b.job.description));
    expect(Object.keys(own[0]!)).not.toContain("description");
  });
});
