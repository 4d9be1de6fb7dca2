// The hiring funnel's routes and stamps (server/internal/analytics) from an attacker's side. Another company's
// manager learns nothing through the routes, whatever path or query they try; nobody but a superuser reads, filters,
// sorts on or writes the candidates' hidden stamps (invitedAt, linkOpenedAt, questionOpenedAt) through the records
// API, its batch, expand or realtime: a true and a false guess get identical answers; and the link's stamp is the
// holder's own read only: a wrong key records nothing.
import type PocketBase from "pocketbase";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { anonymous, asCandidateKey, client, keyOf, pbUrl, refusalBody, superuser, uniqueEmail, world } from "../helpers";
import { listOutcome } from "../support";
import { trySubscribe, type RealtimeEvent } from "./realtime";

type World = Awaited<ReturnType<typeof world>>;

let a: World;
let b: World;
let su: PocketBase;
const STAMPS = ["invitedAt", "linkOpenedAt", "questionOpenedAt"] as const;

beforeAll(async () => {
  [a, b] = await Promise.all([world("analytics-attack-a"), world("analytics-attack-b")]);
  su = await superuser();
  // A's candidate opened their link: its stamp is set
  const key = (await keyOf(a.candidate.id))!;
  await asCandidateKey(key).send(`/api/screenroom/interviews/${key}`, { method: "GET" });
  await vi.waitFor(async () => expect((await su.collection("candidates").getOne(a.candidate.id)).linkOpenedAt).not.toBe(""), { timeout: 10_000 });
});

const stampsOf = async (candidate: string) => {
  const record = await su.collection("candidates").getOne(candidate);
  return Object.fromEntries(STAMPS.map((name) => [name, record[name] as string]));
};

describe("the analytics routes, attacked", () => {
  it("answer paths that walk out of the company, or inject, as an unknown id", async () => {
    const unknown = await refusalBody(() => b.manager.pb.send("/api/screenroom/companies/zzzzzzzzzzzzzzz/analytics", { method: "GET" }));
    for (const path of [
      `/api/screenroom/companies/${b.company.id}%2F..%2F${a.company.id}/analytics`,
      `/api/screenroom/companies/${a.company.id}%00/analytics`,
      `/api/screenroom/companies/${encodeURIComponent(`${a.company.id}' OR 1=1 --`)}/analytics`,
      `/api/screenroom/jobs/${encodeURIComponent(`${a.job.id}" OR "1"="1`)}/analytics`,
    ]) {
      const outcome = await refusalBody(() => b.manager.pb.send(path, { method: "GET" }));
      expect({ path, status: outcome.status }).toEqual({ path, status: 404 });
    }
    expect(await refusalBody(() => b.manager.pb.send(`/api/screenroom/companies/${a.company.id}/analytics`, { method: "GET" }))).toEqual(unknown);
  });

  it("read only the job and company of the path, whatever the query says", async () => {
    const own = await b.manager.pb.send(`/api/screenroom/companies/${b.company.id}/analytics`, { method: "GET" });
    for (const query of [{ company: a.company.id }, { job: a.job.id }, { filter: `job = "${a.job.id}"` }, { expand: "job" }]) {
      const read = await b.manager.pb.send(`/api/screenroom/companies/${b.company.id}/analytics`, { method: "GET", query });
      expect({ ...read, asOf: "" }).toEqual({ ...own, asOf: "" });
      expect(JSON.stringify(read)).not.toContain(a.job.id);
    }
  });

  it("are not kept by a browser or a proxy", async () => {
    const res = await fetch(`${pbUrl()}/api/screenroom/jobs/${a.job.id}/analytics`, { headers: { authorization: a.manager.pb.authStore.token } });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
  });
});

describe("the candidates' stamps", () => {
  it("are in no records API answer: list, view, expand", async () => {
    const listed = await a.manager.pb.collection("candidates").getFullList({ filter: a.manager.pb.filter("job = {:job}", { job: a.job.id }) });
    const viewed = await a.manager.pb.collection("candidates").getOne(a.candidate.id, { expand: "job" });
    const answered = await a.manager.pb.collection("jobs").getOne(a.job.id, { expand: "candidates_via_job" });
    for (const record of [...listed, viewed, ...((answered.expand?.candidates_via_job as Record<string, unknown>[]) ?? [])]) {
      for (const name of STAMPS) expect(record).not.toHaveProperty(name);
    }
  });

  it("cannot be guessed through a filter or a sort: a true and a false guess get the same answer", async () => {
    const stored = await stampsOf(a.candidate.id);
    for (const pb of [a.manager.pb, b.manager.pb, anonymous()]) {
      for (const name of STAMPS) {
        const truth = stored[name]!;
        const right = await listOutcome(pb, "candidates", { filter: `id = "${a.candidate.id}" && ${name} = "${truth}"` });
        const wrong = await listOutcome(pb, "candidates", { filter: `id = "${a.candidate.id}" && ${name} = "2001-01-01 00:00:00.000Z"` });
        expect({ name, right }).toEqual({ name, right: wrong });
        const ascending = await listOutcome(pb, "candidates", { sort: name });
        const descending = await listOutcome(pb, "candidates", { sort: `-${name}` });
        expect({ name, status: ascending.status }).toEqual({ name, status: descending.status });
        // through the job's back-relation too
        const viaJob = await listOutcome(pb, "jobs", { filter: `candidates_via_job.${name} != "${truth}"` });
        const viaJobWrong = await listOutcome(pb, "jobs", { filter: `candidates_via_job.${name} != "2001-01-01 00:00:00.000Z"` });
        expect({ name, viaJob }).toEqual({ name, viaJob: viaJobWrong });
      }
    }
  });

  it("cannot be guessed through a realtime subscription's filter", async () => {
    const stored = await stampsOf(a.candidate.id);
    const topic = (filter: string) => `candidates/${a.candidate.id}?options=${encodeURIComponent(JSON.stringify({ query: { filter } }))}`;
    const truth = topic(`linkOpenedAt = "${stored.linkOpenedAt}"`);
    const lie = topic(`linkOpenedAt = "2001-01-01 00:00:00.000Z"`);
    const control = `candidates/${a.candidate.id}`;
    const realtime = await trySubscribe(a.manager.pb.authStore.token, [truth, lie, control]);
    const heard: string[] = [];
    try {
      await a.manager.pb.collection("candidates").update(a.candidate.id, { firstName: "Realtime" });
      // every event of the write, until the unfiltered one and a second more
      let until = Date.now() + 30_000;
      while (Date.now() < until) {
        const next = realtime.next();
        next.catch(() => undefined);
        const event = await Promise.race([next, new Promise<null>((resolve) => setTimeout(() => resolve(null), until - Date.now()))]);
        if (!event) break;
        heard.push((event as RealtimeEvent).event);
        if ((event as RealtimeEvent).event === control) until = Math.min(until, Date.now() + 1000);
      }
    } finally {
      realtime.close();
    }
    expect(heard).toContain(control);
    expect({ truth: heard.includes(truth) }).toEqual({ truth: heard.includes(lie) });
  });

  it("are not written by a manager's create, update or batch", async () => {
    const before = await stampsOf(a.candidate.id);
    await a.manager.pb.collection("candidates").update(a.candidate.id, { invitedAt: "2001-01-01 00:00:00.000Z", linkOpenedAt: "", questionOpenedAt: "2001-01-01 00:00:00.000Z" });
    const batch = a.manager.pb.createBatch();
    batch.collection("candidates").update(a.candidate.id, { linkOpenedAt: "" });
    const email = uniqueEmail("stamped-batch");
    batch.collection("candidates").create({ job: a.job.id, email, invitedAt: "2001-01-01 00:00:00.000Z", linkOpenedAt: "2001-01-01 00:00:00.000Z" });
    await batch.send();
    expect(await stampsOf(a.candidate.id)).toEqual(before);
    const made = await su.collection("candidates").getFirstListItem(su.filter("email = {:email}", { email }));
    expect(made.invitedAt).not.toBe("2001-01-01 00:00:00.000Z");
    expect(made.linkOpenedAt).toBe("");
  });

  it("records no link opening for a wrong key, nor for a key that is not in the header", async () => {
    const fresh = await a.manager.pb.collection("candidates").create({ job: a.job.id, email: uniqueEmail("unopened") });
    const key = (await keyOf(fresh.id))!;
    const wrong = key.slice(0, -1) + (key.endsWith("a") ? "b" : "a");
    for (const [path, pb] of [
      [`/api/screenroom/interviews/${wrong}`, asCandidateKey(wrong)],
      [`/api/screenroom/interviews/${key}`, client()],
      [`/api/screenroom/interviews/${key}`, asCandidateKey(wrong)],
      [`/api/screenroom/interviews/${fresh.id}`, asCandidateKey(fresh.id)],
    ] as const) {
      expect((await refusalBody(() => pb.send(path, { method: "GET" }))).status).toBe(404);
    }
    // the writer records within a second of a read: after two, still nothing
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect((await stampsOf(fresh.id)).linkOpenedAt).toBe("");
  });
});
