// A page of a job's candidate pipeline (issue 20 point 3): GET /api/screenroom/jobs/{id}/candidates
// (server/internal/pipeline/pipeline_page.go), which the job detail reads instead of the records API's list. It must
// answer what that list answers (the same rows in the same order for every sort, direction, filter and page, the same
// total), with the name of whoever set a decision, and nothing to anyone but the job's company's managers. Who may call
// it is in tests/access-matrix.test.ts ("the product's read routes") and tests/attacks/manager-reads.test.ts.
import type PocketBase from "pocketbase";
import { beforeAll, describe, expect, it } from "vitest";
import { createJob, signUp, superuser, uniqueEmail, world } from "./helpers";

type World = Awaited<ReturnType<typeof world>>;
type Page = { page: number; perPage: number; totalItems: number; totalPages: number; items: Record<string, unknown>[] };

const FIELDS = ["id", "email", "created", "status", "answeredCount", "completedAt", "averageRating", "ratingsCount", "decision", "decisionAt", "deadline", "withdrawn"];
const SORT_FIELDS: Record<string, string> = { email: "email", created: "created", status: "answeredCount", averageRating: "averageRating", decision: "decision" };

const pageOf = (pb: PocketBase, job: string, query: Record<string, string> = {}) =>
  pb.send<Page>(`/api/screenroom/jobs/${encodeURIComponent(job)}/candidates`, { method: "GET", query });

/** The same page through the records API, as the job detail read it before (src/lib/pipeline-query.ts). */
async function recordsPage(pb: PocketBase, job: string, state: Record<string, string>) {
  const clauses = [pb.filter("job = {:job}", { job })];
  if (state.status) clauses.push(pb.filter("status = {:s}", { s: state.status }));
  if (state.decision === "none") clauses.push("decision = ''");
  else if (state.decision) clauses.push(pb.filter("decision = {:d}", { d: state.decision }));
  if (state.q) clauses.push(pb.filter("email ~ {:q}", { q: state.q }));
  const sign = state.dir === "asc" ? "" : "-";
  const field = SORT_FIELDS[state.sort ?? "created"];
  return pb.collection("candidates").getList(Number(state.page ?? 1), Number(state.perPage ?? 30), {
    filter: clauses.join(" && "),
    sort: `${sign}${field},${sign}id`,
    expand: "decisionBy",
  });
}

const pick = (row: Record<string, unknown>) => Object.fromEntries(FIELDS.map((f) => [f, row[f]]));

let w: World;
let fellow: Awaited<ReturnType<typeof signUp>>;
beforeAll(async () => {
  w = await world("pipeline-page");
  fellow = await signUp({ email: uniqueEmail("fellow"), firstName: "Fran", lastName: "Fellow" });
  const su = await superuser();
  await su.collection("companies").update(w.company.id, { "managers+": fellow.user.id });
  // 12 more candidates in w.job, with server fields a superuser sets (statuses, answers, ratings) and decisions
  const statuses = ["invited", "started", "completed"];
  for (let i = 0; i < 12; i++) {
    const email = `${["zed", "amy", "kim", "bo_b", "100%sure"][i % 5]}-${i}-${uniqueEmail("p")}`;
    const created = await w.manager.pb.collection("candidates").create({ job: w.job.id, email });
    const status = statuses[i % 3]!;
    await su.collection("candidates").update(created.id, {
      status,
      answeredCount: status === "invited" ? 0 : status === "started" ? 1 : 2,
      averageRating: [0, 3.5, 4, 4, 2.25][i % 5],
      ratingsCount: i % 5 === 0 ? 0 : 2,
    });
    if (i % 4 === 1) {
      const by = i % 8 === 1 ? w.manager.pb : fellow.pb;
      await by.send(`/api/screenroom/candidates/${created.id}/decision`, { method: "POST", body: { decision: ["advance", "hold", "reject"][i % 3] } });
    }
  }
});

describe("GET /api/screenroom/jobs/{id}/candidates", () => {
  it("answers the records API's rows, order and total for every sort, direction, filter and page", async () => {
    const states: Record<string, string>[] = [
      {},
      ...Object.keys(SORT_FIELDS).flatMap((sort) => [
        { sort, dir: "asc" },
        { sort, dir: "desc" },
      ]),
      { status: "completed" },
      { status: "started", sort: "email", dir: "asc" },
      { decision: "none" },
      { decision: "advance", sort: "averageRating", dir: "desc" },
      { status: "completed", decision: "none" },
      { q: "amy" },
      { q: "AMY", status: "started" },
      { perPage: "5", page: "2", sort: "email", dir: "asc" },
      { perPage: "5", page: "3" },
      { perPage: "5", page: "9" },
    ];
    for (const state of states) {
      const [mine, theirs] = await Promise.all([pageOf(w.manager.pb, w.job.id, state), recordsPage(w.manager.pb, w.job.id, state)]);
      const label = JSON.stringify(state);
      expect(mine.items.map(pick), label).toEqual(theirs.items.map((r) => pick(r)));
      expect([mine.page, mine.perPage, mine.totalItems, mine.totalPages], label).toEqual([theirs.page, theirs.perPage, theirs.totalItems, theirs.totalPages]);
      // whoever set the decision, as the expand names them
      expect(
        mine.items.map((r) => (r.expand as { decisionBy?: unknown } | undefined)?.decisionBy ?? null),
        label,
      ).toEqual(
        theirs.items.map((r) => {
          const by = r.expand?.decisionBy as { id: string; firstName: string; lastName: string } | undefined;
          return by ? { id: by.id, firstName: by.firstName, lastName: by.lastName } : null;
        }),
      );
    }
    // the pipeline of this job has decisions by both managers
    const decided = await pageOf(w.manager.pb, w.job.id, { decision: "hold" });
    expect(decided.items.length).toBeGreaterThan(0);
  });

  it("names who set a decision, and nothing more of them", async () => {
    const { items } = await pageOf(fellow.pb, w.job.id, { sort: "decision", dir: "desc", perPage: "100" });
    const names = items.flatMap((r) => {
      const by = (r.expand as { decisionBy?: Record<string, unknown> } | undefined)?.decisionBy;
      return by ? [by] : [];
    });
    expect(names.length).toBeGreaterThan(0);
    for (const by of names) expect(Object.keys(by).sort()).toEqual(["firstName", "id", "lastName"]);
    expect(names.map((by) => by.firstName)).toContain("Fran");
  });

  it("takes the search literally: % and _ are characters, not wildcards", async () => {
    const percent = await pageOf(w.manager.pb, w.job.id, { q: "100%sure", perPage: "100" });
    expect(percent.totalItems).toBe(2); // i = 4 and 9
    expect(percent.items.every((r) => String(r.email).startsWith("100%sure"))).toBe(true);
    const underscore = await pageOf(w.manager.pb, w.job.id, { q: "bo_b", perPage: "100" });
    expect(underscore.items.map((r) => String(r.email).slice(0, 4))).toEqual(["bo_b", "bo_b"]);
    expect((await pageOf(w.manager.pb, w.job.id, { q: "b%b" })).totalItems).toBe(0);
  });

  it("reads nothing outside the job: unknown sorts, directions and filters are the defaults, never SQL", async () => {
    const normal = await pageOf(w.manager.pb, w.job.id);
    const queries: Record<string, string>[] = [
      { sort: "secret" },
      { sort: "email; DROP TABLE candidates" },
      { dir: "asc, (SELECT secret FROM candidates)" },
      { status: "x' OR 1=1 --" },
      { decision: "' OR job != '" },
      { page: "-1", perPage: "100000" },
    ];
    for (const query of queries) {
      const page = await pageOf(w.manager.pb, w.job.id, query);
      expect(page.items.every((r) => !("secret" in r) && !("job" in r))).toBe(true);
      expect(page.totalItems, JSON.stringify(query)).toBe(normal.totalItems);
    }
    // another job of the same company: only its own candidates
    const empty = await createJob(w.manager.pb, w.company.id, [w.text.question.id]);
    expect(await pageOf(w.manager.pb, empty.id)).toMatchObject({ totalItems: 0, items: [] });
  });
});
