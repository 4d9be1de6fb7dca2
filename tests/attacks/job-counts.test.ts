// Issue 16's jobs-list counts route (GET /api/screenroom/companies/{id}/job-counts, server/internal/jobs/job_counts.go)
// from an attacker's side: another company's manager, a candidate's key and a visitor learn nothing, not even whether
// a company exists (the same 404 body as for an unknown id), and no query parameter widens what a manager reads.
import { beforeAll, describe, expect, it } from "vitest";
import type PocketBase from "pocketbase";
import { anonymous, asCandidate, newCandidateOf, refusalBody, world } from "../helpers";

type World = Awaited<ReturnType<typeof world>>;
type Counts = { jobs: Record<string, { total: number; invited: number; started: number; completed: number }> };

const counts = (pb: PocketBase, company: string, query: Record<string, string> = {}) =>
  pb.send<Counts>(`/api/screenroom/companies/${company}/job-counts`, { method: "GET", query });

let a: World;
let b: World;
beforeAll(async () => {
  [a, b] = await Promise.all([world("counts-attack-a"), world("counts-attack-b")]);
  await newCandidateOf(a, "counted");
});

describe("job-counts, attacked", () => {
  it("answers another company's manager, a candidate and a visitor as it answers an unknown company", async () => {
    const unknown = await refusalBody(() => counts(b.manager.pb, "zzzzzzzzzzzzzzz"));
    expect(unknown.status).toBe(404);
    for (const pb of [b.manager.pb, asCandidate(a.candidate.id), anonymous()]) {
      expect(await refusalBody(() => counts(pb, a.company.id))).toEqual(unknown);
    }
  });

  it("reads only the company in the path, whatever the query says", async () => {
    const own = await counts(b.manager.pb, b.company.id);
    const queries: Record<string, string>[] = [{ company: a.company.id }, { filter: `company = "${a.company.id}"` }, { expand: "company" }, { id: a.company.id }];
    for (const query of queries) {
      const read = await counts(b.manager.pb, b.company.id, query);
      expect(read).toEqual(own);
      expect(Object.keys(read.jobs)).not.toContain(a.job.id);
    }
    // the other company's own manager sees its counts: the refusal above is about who asks
    expect((await counts(a.manager.pb, a.company.id)).jobs[a.job.id]?.total).toBe(2);
  });

  it("does not follow a path that walks out of the company", async () => {
    for (const path of [`${b.company.id}/..%2F${a.company.id}`, `${a.company.id}%00`, `${encodeURIComponent(`${a.company.id}" OR 1=1 --`)}`]) {
      const status = await refusalBody(() => b.manager.pb.send(`/api/screenroom/companies/${path}/job-counts`, { method: "GET" }));
      expect(status.status).toBe(404);
    }
  });
});
