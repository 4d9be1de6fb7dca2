// The command line of `npm run bench` (scripts/bench.mjs): `--only=bytes,lighthouse` measures only those parts
// (bytes, latency, lighthouse, upload, session, analytics, durability, replication) and skips the other checks; `--lighthouse-runs=N` (default 3) audits
// each page N times and keeps the median run; `--no-build` serves the dist/ already there instead of building it;
// `--scale=N` (default 1) seeds N times the data set (scripts/bench-seed.mjs: 300 jobs and 30,000 candidates at 10);
// `--latency-runs=N` (default 3) measures each read N times and keeps the median p50 and p95; `--reads=a,b` measures
// only those reads of the latency part (e.g. `--reads=searchRare,searchCommon,searchPhrase`); `--large-pipeline=N`
// seeds one more pipeline job of N candidates beside the data set (the pipeline read at 30,000), its reads measured
// as largePipeline….

export const ONLY = process.argv.find((a) => a.startsWith("--only="))?.slice("--only=".length).split(",") ?? null;
export const LIGHTHOUSE_RUNS = Number(process.argv.find((a) => a.startsWith("--lighthouse-runs="))?.split("=")[1] ?? 3);
export const BUILD = !process.argv.includes("--no-build");
export const LATENCY_RUNS = Number(process.argv.find((a) => a.startsWith("--latency-runs="))?.split("=")[1] ?? 3);
export const READS = process.argv.find((a) => a.startsWith("--reads="))?.slice("--reads=".length).split(",") ?? null;
export const SCALE = Number(process.argv.find((a) => a.startsWith("--scale="))?.split("=")[1] ?? 1);
if (!Number.isInteger(SCALE) || SCALE < 1 || SCALE > 100) throw new Error(`--scale must be a whole number from 1 to 100, not ${SCALE}`);
export const LARGE_PIPELINE = Number(process.argv.find((a) => a.startsWith("--large-pipeline="))?.split("=")[1] ?? 0);
if (!Number.isInteger(LARGE_PIPELINE) || LARGE_PIPELINE < 0 || LARGE_PIPELINE > 100_000) {
  throw new Error(`--large-pipeline must be a whole number of candidates up to 100,000, not ${LARGE_PIPELINE}`);
}

/** Whether this run measures the part: every part without `--only`, else the ones it names. */
export function wants(part) {
  return !ONLY || ONLY.includes(part);
}
