// analytics: the hiring funnel's reads (server/internal/analytics) at the bench's scale (decisions.md: different jobs
// and the company's figures, at ten times the data: `--scale=10`, 300 jobs and 30,000 candidates in one company).
// The server keeps each job's figures until a write it counts changes the job, so four figures are measured:
//   - companyFirst: the company's figures with nothing kept (every job's candidates read), 10 times;
//   - jobFirst: each job's figures with nothing kept, every job once (the job of 3,000 candidates among them);
//   - companyAfterWrite: the company's figures right after a decision on a candidate of another job each time (the one
//     job computed again, the others' kept figures added up), 10 times;
//   - underLoad: 10 connections reading every job's figures and the company's (one request in ten), as managers
//     would, LATENCY_RUNS runs of 5 seconds (the medians of their p50 and p95).
// The first three are read one at a time; the server is pinned to one core and the load generator to the other.
import autocannon from "autocannon";
import PocketBase from "pocketbase";
import { LATENCY_RUNS } from "./options.mjs";
import { pinned } from "./latency.mjs";
import { round } from "./numbers.mjs";

const FORGET = "/api/screenroom/bench-seed/analytics-forget";

function summary(times) {
  const sorted = [...times].sort((a, b) => a - b);
  const pct = (p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
  return { p50: round(pct(50)), p95: round(pct(95)), max: round(sorted[sorted.length - 1]), requests: sorted.length };
}

async function timedGet(url, path, token) {
  const started = performance.now();
  const res = await fetch(url + path, { headers: { authorization: token } });
  const body = await res.text();
  const ms = performance.now() - started;
  if (!res.ok) throw new Error(`${path}: ${res.status} ${body}`);
  return { ms, body: JSON.parse(body) };
}

export async function analyticsReads(url, token, seed, su, serverPid) {
  const admin = new PocketBase(url);
  admin.autoCancellation(false);
  await admin.collection("_superusers").authWithPassword(su.email, su.password);
  const forget = () => admin.send(FORGET, { method: "POST" });

  const company = `/api/screenroom/companies/${seed.companyId}/analytics`;
  const jobPath = (id) => `/api/screenroom/jobs/${id}/analytics`;
  const manager = new PocketBase(url);
  manager.autoCancellation(false);
  manager.authStore.save(token, null);
  const jobs = (await manager.send(`/api/screenroom/companies/${seed.companyId}/jobs`, { method: "GET" })).map((job) => job.id);

  const result = {};
  await pinned(serverPid, async () => {
    const first = [];
    let figures;
    for (let i = 0; i < 10; i++) {
      await forget();
      const read = await timedGet(url, company, token);
      first.push(read.ms);
      figures = read.body;
    }
    result.companyFirst = { ...summary(first), jobs: jobs.length, candidates: figures.funnel.invited };

    await forget();
    const jobFirst = [];
    for (const id of jobs) jobFirst.push((await timedGet(url, jobPath(id), token)).ms);
    result.jobFirst = summary(jobFirst);
    const pipeline = [];
    for (let i = 0; i < 10; i++) {
      await forget();
      pipeline.push((await timedGet(url, jobPath(seed.pipelineJobId), token)).ms);
    }
    result.pipelineJobFirst = summary(pipeline);

    // a decision on one candidate of a different job each time, then the company's figures
    const afterWrite = [];
    await timedGet(url, company, token);
    for (let i = 0; i < 10; i++) {
      const job = jobs[(i * 29) % jobs.length];
      const candidate = (await admin.collection("candidates").getList(1, 1, { filter: admin.filter("job = {:job}", { job }), skipTotal: true })).items[0];
      await admin.collection("candidates").update(candidate.id, { decision: candidate.decision === "hold" ? "advance" : "hold" });
      afterWrite.push((await timedGet(url, company, token)).ms);
    }
    result.companyAfterWrite = summary(afterWrite);

    // the steady state: every job and the company read again and again by ten managers' screens
    const requests = [];
    jobs.forEach((id, i) => {
      requests.push({ method: "GET", path: jobPath(id) });
      if (i % 9 === 8) requests.push({ method: "GET", path: company });
    });
    const runs = [];
    for (let i = 0; i < LATENCY_RUNS; i++) {
      const times = [];
      const run = autocannon({ url, requests, headers: { authorization: token }, connections: 10, duration: 5 });
      run.on("response", (_client, _status, _bytes, responseTime) => times.push(responseTime));
      const done = await run;
      runs.push({ ...summary(times), rps: done.requests.average, errors: done.errors + done.non2xx });
    }
    const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
    result.underLoad = {
      p50: median(runs.map((r) => r.p50)),
      p95: median(runs.map((r) => r.p95)),
      max: Math.max(...runs.map((r) => r.max)),
      requests: runs.reduce((sum, r) => sum + r.requests, 0),
      rps: round(median(runs.map((r) => r.rps))),
      errors: runs.reduce((sum, r) => sum + r.errors, 0),
      p95Runs: runs.map((r) => r.p95),
    };
  });
  return result;
}
