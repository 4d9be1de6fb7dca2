// The command line of `npm run bench` (scripts/bench.mjs): `--only=bytes,lighthouse` measures only those parts
// (bytes, latency, lighthouse, upload, session, durability) and skips the other checks; `--lighthouse-runs=N` (default 3) audits
// each page N times and keeps the median run; `--no-build` serves the dist/ already there instead of building it.

export const ONLY = process.argv.find((a) => a.startsWith("--only="))?.slice("--only=".length).split(",") ?? null;
export const LIGHTHOUSE_RUNS = Number(process.argv.find((a) => a.startsWith("--lighthouse-runs="))?.split("=")[1] ?? 3);
export const BUILD = !process.argv.includes("--no-build");

/** Whether this run measures the part: every part without `--only`, else the ones it names. */
export function wants(part) {
  return !ONLY || ONLY.includes(part);
}
