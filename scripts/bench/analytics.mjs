// analytics: the hiring funnel's reads (server/internal/analytics) at the bench's scale (decisions.md: different jobs
// and the company's figures, at ten times the data: `--scale=10`, 300 jobs and 30,000 candidates in one company).
// The server computes the figures when it starts (its warm-up, which the bench waits for: stack.mjs) and keeps each job's until a write it counts moves the job; right
// after such a write a read is served the kept figures (at most 45 s old, decisions.md allows 60) while the job is
// computed again behind it, and the Refresh button (?fresh=1) has it computed before the answer. Measured:
//   - companyRead: the company's figures, 30 times; jobRead: each job's, every job once (what managers read);
//   - companyAfterWrite: the company's right after a decision on a candidate of another job each time, 30 times;
//   - refreshAfterWrite: the same with Refresh, the one job computed again and all added up before the answer;
//   - underLoad: 10 connections reading every job's figures and the company's (one request in ten), as managers
//     would, LATENCY_RUNS runs of 5 seconds (the medians of their p50 and p95);
//   - computeCompany and computePipelineJob, not reads a manager waits for: the company's and the 3,000-candidate
//     job's figures computed from nothing kept (what the warm-up does), 10 times each.
// All but underLoad are read one at a time; the server is pinned to one core and the load generator to the other.
import autocannon from "autocannon";
import PocketBase from "pocketbase";
import { LATENCY_RUNS } from "./options.mjs";
import { pinned } from "./latency.mjs";
import { round } from "./numbers.mjs";

// reads of each kind one at a time: enough for a p95 that is not just the slowest one
const SAMPLES = 30;
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
    const companyReads = [];
    let figures;
    for (let i = 0; i < SAMPLES; i++) {
      const read = await timedGet(url, company, token);
      companyReads.push(read.ms);
      figures = read.body;
    }
    result.companyRead = { ...summary(companyReads), jobs: jobs.length, candidates: figures.funnel.invited };
    const jobReads = [];
    for (const id of jobs) jobReads.push((await timedGet(url, jobPath(id), token)).ms);
    result.jobRead = summary(jobReads);

    // a decision on one candidate of a different job each time, then the company's figures: as kept, then Refresh
    const decideIn = async (i) => {
      const job = jobs[(i * 29) % jobs.length];
      const candidate = (await admin.collection("candidates").getList(1, 1, { filter: admin.filter("job = {:job}", { job }), skipTotal: true })).items[0];
      await admin.collection("candidates").update(candidate.id, { decision: candidate.decision === "hold" ? "advance" : "hold" });
    };
    const afterWrite = [];
    let kept = 0;
    for (let i = 0; i < SAMPLES; i++) {
      await decideIn(i);
      const read = await timedGet(url, company, token);
      afterWrite.push(read.ms);
      if (read.body.refreshing) kept++;
    }
    result.companyAfterWrite = { ...summary(afterWrite), servedKept: kept };
    const refresh = [];
    for (let i = SAMPLES; i < 2 * SAMPLES; i++) {
      await decideIn(i);
      const read = await timedGet(url, `${company}?fresh=1`, token);
      if (read.body.refreshing) throw new Error("a Refresh read was served kept figures");
      refresh.push(read.ms);
    }
    result.refreshAfterWrite = summary(refresh);

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

    const computeCompany = [];
    for (let i = 0; i < 10; i++) {
      await forget();
      computeCompany.push((await timedGet(url, company, token)).ms);
    }
    result.computeCompany = summary(computeCompany);
    const computePipeline = [];
    for (let i = 0; i < 10; i++) {
      await forget();
      computePipeline.push((await timedGet(url, jobPath(seed.pipelineJobId), token)).ms);
    }
    result.computePipelineJob = summary(computePipeline);
  });
  return result;
}
