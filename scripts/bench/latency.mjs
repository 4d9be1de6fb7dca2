// latency: the reads the product's screens send, under load from autocannon (loopback only).
import autocannon from "autocannon";
import { spawnSync } from "node:child_process";
import { cpus } from "node:os";
import { LATENCY_RUNS, READS } from "./options.mjs";
import { loadPipelineModules, sdkRequest } from "./app-requests.mjs";
import { round } from "./numbers.mjs";

/**
 * Pins PocketBase (`serverPid`, all its threads) to the first core and this process (the load generator) to the
 * second while `measure` runs, so the two do not take turns on one core (decisions.md: "with the load generator on its
 * own core"); on a machine of one core, or without taskset, it just runs `measure`.
 */
export async function pinned(serverPid, measure) {
  const n = cpus().length;
  const pin = (pid, list) => spawnSync("taskset", ["-a", "-p", "-c", list, String(pid)], { stdio: "ignore" }).status === 0;
  const ok = n >= 2 && serverPid && pin(serverPid, "0") && pin(process.pid, "1");
  try {
    return await measure();
  } finally {
    if (ok) {
      pin(serverPid, `0-${n - 1}`);
      pin(process.pid, `0-${n - 1}`);
    }
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** One autocannon run of `request`: 10 connections for 5 seconds, every response's time. */
// what every browser sends with each request: the server may answer gzipped (the jobs list and its counts do)
const BROWSER_HEADERS = { "accept-encoding": "gzip, deflate, br, zstd" };

async function measureOnce(url, request) {
  const times = [];
  const run = autocannon({ url: url + request.path, headers: { ...BROWSER_HEADERS, ...request.headers }, connections: 10, duration: 5 });
  run.on("response", (_client, _status, _bytes, responseTime) => times.push(responseTime));
  const summary = await run;
  times.sort((a, b) => a - b);
  const pct = (p) => times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))];
  return { p50: pct(50), p95: pct(95), rps: summary.requests.average, requests: times.length, errors: summary.errors + summary.non2xx };
}

/**
 * p50 / p95 latency and requests per second of the requests the product's screens make, 10 connections each, the
 * medians of LATENCY_RUNS runs of 5 seconds (each run's p95 in p95Runs).
 * Each is the request the app sends (same path, query and headers as the SDK call in the named file).
 */
export async function latencies(url, token, seed, serverPid) {
  const q = (params) => new URLSearchParams(params).toString();
  // a page of a job's candidate pipeline in `state`, as the job detail asks for it (src/features/jobs/api/job-queries.ts,
  // pipeline-request.ts: GET /api/screenroom/jobs/{id}/candidates)
  const { DEFAULT_PIPELINE, pipelinePageRequest, pipelineCountsPath } = await loadPipelineModules();
  const pipelinePage = (jobId, state) =>
    sdkRequest(url, token, (pb, fetch) => {
      const { path, query } = pipelinePageRequest(jobId, { ...DEFAULT_PIPELINE, ...state });
      return pb.send(path, { method: "GET", query, fetch });
    });
  const pipelineCounts = (jobId) => sdkRequest(url, token, (pb, fetch) => pb.send(pipelineCountsPath(jobId), { method: "GET", fetch }));
  const searchRequest = (text) => ({
    path: `/api/screenroom/companies/${seed.companyId}/search?${q({ q: text, offset: "0" })}`,
    headers: { authorization: token },
  });
  const requests = {
    // the interview's one read (src/features/interview/api/interview-get.ts): the link's key, in the path and the header
    candidateStart: {
      path: `/api/screenroom/interviews/${seed.candidateKey}`,
      headers: { "x-candidate-key": seed.candidateKey },
    },
    // the company's jobs list (src/features/jobs/api/job-queries.ts, list: server/internal/jobs/jobs_list.go)
    companyHome: {
      path: `/api/screenroom/companies/${seed.companyId}/jobs`,
      headers: { authorization: token },
    },
    // issue 20: the jobs list's candidates per status and job, one request (job-queries.ts, listCounts)
    jobCounts: {
      path: `/api/screenroom/companies/${seed.companyId}/job-counts`,
      headers: { authorization: token },
    },
    // issue 20: the questions list (src/features/questions/api/question-queries.ts, overview:
    // server/internal/questions/questions_list.go): each question with its kind record (how many jobs use each comes
    // from the jobs list, companyHome's read)
    questionsList: {
      path: `/api/screenroom/companies/${seed.companyId}/questions`,
      headers: { authorization: token },
    },
    // issue 20: the company as the team and edit screens read it (company-queries.ts, detail)
    companyDetail: {
      path: `/api/collections/companies/records/${seed.companyId}?${q({ expand: "managers" })}`,
      headers: { authorization: token },
    },
    // the job detail screen's reads (job-queries.ts): the job, and its pipeline's first page (a job of 100 candidates)
    jobDetail: {
      path: `/api/collections/jobs/records/${seed.jobId}?${q({ expand: "questions" })}`,
      headers: { authorization: token },
    },
    // issue 20: the detail of the job holding 3,000 candidates (the same read)
    pipelineJobDetail: {
      path: `/api/collections/jobs/records/${seed.pipelineJobId}?${q({ expand: "questions" })}`,
      headers: { authorization: token },
    },
    jobCandidates: await pipelinePage(seed.jobId, {}),
    // issue 15: the pipeline of the job holding 3,000 candidates: its first page in the default order (newest invite
    // first), a filtered and sorted page (completed, best rated first), and the counts per status at its top
    pipelinePage: await pipelinePage(seed.pipelineJobId, {}),
    pipelineFiltered: await pipelinePage(seed.pipelineJobId, { status: "completed", sort: "averageRating", dir: "desc" }),
    pipelineCounts: await pipelineCounts(seed.pipelineJobId),
    // the same four reads of a job of 30,000 candidates, seeded with `--large-pipeline=30000`
    ...(seed.largePipelineJobId
      ? {
          largePipelineJobDetail: {
            path: `/api/collections/jobs/records/${seed.largePipelineJobId}?${q({ expand: "questions" })}`,
            headers: { authorization: token },
          },
          largePipelinePage: await pipelinePage(seed.largePipelineJobId, {}),
          largePipelineFiltered: await pipelinePage(seed.largePipelineJobId, { status: "completed", sort: "averageRating", dir: "desc" }),
          largePipelineCounts: await pipelineCounts(seed.largePipelineJobId),
        }
      : {}),
    // issue 18: the transcript search (src/features/search/api/search-answers.ts) over every text answer and
    // transcript of the company (bench-seed.mjs): a rare word (about 1 in 100 answers), a common word, and a phrase
    searchRare: searchRequest("kubernetes"),
    searchCommon: searchRequest("customers improved"),
    searchPhrase: searchRequest('"customer support"'),
    // the candidate review (src/features/review/api/review-candidate.ts): the review route, by record id
    candidateReview: {
      path: `/api/screenroom/reviews/${seed.candidateId}`,
      headers: { authorization: token },
    },
  };
  const result = {};
  await pinned(serverPid, async () => {
    for (const [name, request] of Object.entries(requests)) {
      if (READS && !READS.includes(name)) continue;
      const check = await fetch(url + request.path, { headers: request.headers });
      if (!check.ok) throw new Error(`${name}: ${check.status} ${await check.text()}`);
      // the median of LATENCY_RUNS runs (decisions.md: a p95 gate reads the median of several runs)
      const runs = [];
      for (let i = 0; i < LATENCY_RUNS; i++) runs.push(await measureOnce(url, request));
      result[name] = {
        p50: round(median(runs.map((r) => r.p50))),
        p95: round(median(runs.map((r) => r.p95))),
        rps: round(median(runs.map((r) => r.rps))),
        requests: runs.reduce((sum, r) => sum + r.requests, 0),
        errors: runs.reduce((sum, r) => sum + r.errors, 0),
        p95Runs: runs.map((r) => round(r.p95)),
      };
    }
  });
  return result;
}
