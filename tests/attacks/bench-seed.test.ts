// The benchmark's seeding routes (issue 20, server/internal/devroutes): POST /api/screenroom/bench-seed and
// /api/screenroom/bench-seed/clone write any record as a superuser would, so they exist only on a server started with
// SCREENROOM_BENCH_SEED (the bench's own), and there only for superusers. Everyone else, and everyone on any other
// server (the shared test server here stands for production), gets the same 404 and nothing is written.
import type PocketBase from "pocketbase";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anonymous, asCandidate, fixture, randomId, statusOf, superuser, uniqueEmail, useOwnServer, world, type OwnServer } from "../helpers";
import { join } from "node:path";

const SEED = "/api/screenroom/bench-seed";
const CLONE = "/api/screenroom/bench-seed/clone";
const FORGET = "/api/screenroom/bench-seed/analytics-forget";

type World = Awaited<ReturnType<typeof world>>;

/** The requests each actor sends: a candidate of `w`'s job made in `w`'s company, and a copy of `w`'s job. */
function attempts(w: World, email: string) {
  return {
    seed: (pb: PocketBase) =>
      pb.send(SEED, { method: "POST", body: { records: [{ collection: "candidates", data: { id: randomId(), job: w.job.id, email } }] } }),
    clone: (pb: PocketBase) => pb.send(CLONE, { method: "POST", body: { jobs: [w.job.id], copy: 1 } }),
    // the analytics drop the figures they keep (the bench measures their first read): nothing is written
    forget: (pb: PocketBase) => pb.send(FORGET, { method: "POST" }),
  };
}

async function candidatesWith(email: string) {
  return (await superuser()).collection("candidates").getList(1, 1, { filter: `email = "${email}"` });
}

async function jobsTitled(title: string) {
  return (await superuser()).collection("jobs").getList(1, 1, { filter: `title = "${title}"` });
}

describe("on a server without SCREENROOM_BENCH_SEED", () => {
  let w: World;
  beforeAll(async () => {
    w = await world("bench-seed-off");
  });

  it("answers 404 to everyone, the superuser included, and writes nothing", async () => {
    const email = uniqueEmail("bench-seed-off");
    const { seed, clone, forget } = attempts(w, email);
    const actors: [string, () => Promise<PocketBase>][] = [
      ["anonymous", async () => anonymous()],
      ["candidate", async () => asCandidate(w.candidate.id)],
      ["manager", async () => w.manager.pb],
      ["superuser", superuser],
    ];
    for (const [name, pb] of actors) {
      expect(await statusOf(async () => seed(await pb())), `${name} seed`).toBe(404);
      expect(await statusOf(async () => clone(await pb())), `${name} clone`).toBe(404);
      expect(await statusOf(async () => forget(await pb())), `${name} forget`).toBe(404);
    }
    expect((await candidatesWith(email)).totalItems).toBe(0);
    expect((await jobsTitled(`${w.job.title} · copy 1`)).totalItems).toBe(0);
  });
});

describe("on the bench's server (SCREENROOM_BENCH_SEED set)", () => {
  let own: OwnServer;
  let w: World;
  beforeAll(async () => {
    own = await useOwnServer({ SCREENROOM_BENCH_SEED: join(__dirname, "..", "fixtures", "answer.webm") });
    w = await world("bench-seed-on");
    expect(fixture("answer.webm").length).toBeGreaterThan(0);
  });
  afterAll(async () => {
    await own?.stop();
  });

  it("answers 404 to anyone but a superuser, and writes nothing", async () => {
    const email = uniqueEmail("bench-seed-on");
    const { seed, clone, forget } = attempts(w, email);
    for (const [name, pb] of [
      ["anonymous", anonymous()],
      ["candidate", asCandidate(w.candidate.id)],
      ["manager", w.manager.pb],
    ] as const) {
      expect(await statusOf(() => seed(pb)), `${name} seed`).toBe(404);
      expect(await statusOf(() => clone(pb)), `${name} clone`).toBe(404);
      expect(await statusOf(() => forget(pb)), `${name} forget`).toBe(404);
    }
    expect((await candidatesWith(email)).totalItems).toBe(0);
    expect((await jobsTitled(`${w.job.title} · copy 1`)).totalItems).toBe(0);
  });

  it("writes a superuser's records through the model hooks, and copies a job with its candidates", async () => {
    const email = uniqueEmail("Bench-Seed-Upper");
    const { seed, clone, forget } = attempts(w, email.toUpperCase());
    const su = await superuser();
    expect(await seed(su)).toEqual({ saved: 1 });
    expect(await statusOf(() => forget(su))).toBe(200);
    // the candidates hooks ran: the e-mail stored lower-cased, the status the server's
    const stored = (await candidatesWith(email.toLowerCase())).items[0];
    expect(stored?.status).toBe("invited");

    const copied = await clone(su);
    expect(copied.counts.jobs).toBe(1);
    const copy = (await jobsTitled(`${w.job.title} · copy 1`)).items[0];
    expect(copy?.company).toBe(w.company.id);
    const copies = await su.collection("candidates").getFullList({ filter: su.filter("job = {:job}", { job: copy!.id }) });
    const originals = await su.collection("candidates").getFullList({ filter: su.filter("job = {:job}", { job: w.job.id }) });
    expect(copies.map((c) => c.email).sort()).toEqual(originals.map((c) => `copy1-${c.email}`).sort());
  });
});
