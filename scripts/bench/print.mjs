// The bench's output: the figures as tables, then the budget checks; and all of it as one JSON line, also written to
// test-results/bench.json.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { root } from "../lib/pocketbase.mjs";
import { LIGHTHOUSE_RUNS } from "./options.mjs";

/**
 * The first visits of the build before the app returned to React DOM and a client-only SPA (Preact aliased as React,
 * three screens written by the Go server), measured once by the same bytes and Lighthouse code on the commit it
 * names: printed beside today's figures, so the cost of the order's stack stays visible.
 */
const BASELINE_FILE = join(root, "scripts", "bench", "preact-baseline.json");
const baseline = existsSync(BASELINE_FILE) ? JSON.parse(readFileSync(BASELINE_FILE, "utf8")) : null;

/** The data set, the figures as tables and every budget check (ok, MISS or skip), for people to read. */
export function print(f, checks) {
  console.log(`\nData set: ${JSON.stringify(f.seed)}\n`);
  console.log("First visit        JS raw    JS gzip   CSS raw   CSS gzip  files   JS gzip / CSS gzip before (Preact + server-written)");
  for (const [name, b] of Object.entries(f.bytes)) {
    const before = baseline?.bytes?.[name];
    const was = before ? `${String(before.js.gzip).padStart(9)} / ${before.css.gzip}` : "";
    console.log(`${name.padEnd(16)} ${String(b.js.raw).padStart(8)} ${String(b.js.gzip).padStart(9)} ${String(b.css.raw).padStart(9)} ${String(b.css.gzip).padStart(9)}  ${String(b.files.length).padStart(5)}   ${was}`);
  }
  if (baseline && Object.keys(f.bytes).length) console.log(`(before: commit ${baseline.commit}, ${baseline.note})`);
  console.log("\nRequest                  p50 ms   p95 ms   req/s   requests  errors  p95 of each run");
  for (const [name, l] of Object.entries(f.latency)) {
    console.log(`${name.padEnd(22)} ${String(l.p50).padStart(8)} ${String(l.p95).padStart(8)} ${String(l.rps).padStart(7)} ${String(l.requests).padStart(10)} ${String(l.errors).padStart(7)}  ${(l.p95Runs ?? []).join(" ")}`);
  }
  if (f.lighthouse) {
    console.log(`\nLighthouse (mobile, simulated; median of ${LIGHTHOUSE_RUNS})  score   LCP ms   FCP ms   TBT ms   CLS    scores of all runs   score / LCP ms before`);
    for (const [name, l] of Object.entries(f.lighthouse)) {
      const before = baseline?.lighthouse?.[name];
      const was = before ? `${before.score} / ${before.lcpMs}` : "";
      console.log(`${name.padEnd(40)} ${String(l.score).padStart(6)} ${String(l.lcpMs).padStart(8)} ${String(l.fcpMs).padStart(8)} ${String(l.tbtMs).padStart(8)} ${String(l.cls).padStart(5)}    ${l.runs.join(" ").padEnd(18)} ${was}`);
    }
  }
  if (f.analyticsWarmUp) console.log(`\nThe server's analytics warm-up, waited for before measuring: ${f.analyticsWarmUp.ms} ms for ${f.analyticsWarmUp.jobs} jobs`);
  if (f.analytics) {
    console.log("\nAnalytics read (server/internal/analytics)     p50 ms   p95 ms   max ms  requests  req/s  errors");
    for (const [name, a] of Object.entries(f.analytics)) {
      console.log(`${name.padEnd(44)} ${String(a.p50).padStart(8)} ${String(a.p95).padStart(8)} ${String(a.max).padStart(8)} ${String(a.requests).padStart(9)} ${String(a.rps ?? "").padStart(6)} ${String(a.errors ?? "").padStart(7)}`);
    }
    const { companyRead, companyAfterWrite } = f.analytics;
    const warmUp = f.analyticsWarmUp;
    if (companyRead) console.log(`(the company: ${companyRead.jobs} jobs, ${companyRead.candidates} candidates; computed at the server's start in ${warmUp.ms} ms for ${warmUp.jobs} jobs; right after a write ${companyAfterWrite.servedKept} of ${companyAfterWrite.requests} reads served kept figures)`);
  }
  if (f.managerSession) console.log(`\nManager session: ${JSON.stringify(f.managerSession)}`);
  if (f.upload) {
    const u = f.upload;
    console.log(`\nUpload of ${u.bytes} bytes (medians of ${u.appRuns.length} after a warm-up; runs in brackets):`);
    console.log(`  app: click on 'Stop Recording' → answer confirmed ${String(u.appMs).padStart(6)} ms  [${u.appRuns.join(", ")}]`);
    console.log(`  plain multipart create of the same file          ${String(u.plainMs).padStart(6)} ms  [${u.plainRuns.join(", ")}]`);
    console.log(`  ratio ${u.ratio}`);
    console.log(
      `  for information: 'Stop Recording' → 'Submit answer' clickable ${u.stopToSubmitMs} ms; its click → confirmed ${u.clickToDoneMs} ms; ` +
        `${u.parts} parts sent while recording and after; answer request ${u.answerBodyBytes} bytes`,
    );
  }
  console.log("\nBudget                                          value        limit        ");
  for (const c of checks) console.log(`${c.ok ? "ok  " : c.skipped ? "skip" : "MISS"} ${c.name.padEnd(44)} ${String(c.value ?? "not measured").padEnd(12)} ${c.limit}`);
}

/** The figures and checks as JSON: written to test-results/bench.json and printed as one line, for tools. */
export function saveResults(figures, checks) {
  mkdirSync(join(root, "test-results"), { recursive: true });
  writeFileSync(join(root, "test-results", "bench.json"), JSON.stringify({ figures, checks }, null, 2));
  console.log(JSON.stringify({ figures, checks }));
}
