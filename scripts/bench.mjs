// `npm run bench`: builds the production bundle, serves it from PocketBase with the issue-8 data set
// (scripts/bench-seed.mjs) and prints figures as a table and as JSON (test-results/bench.json).
// Exit code 1 when a budget is missed or a figure could not be measured. Timing lives here, never in tests.
// `--only=bytes,lighthouse` measures only those parts (bytes, latency, lighthouse, upload, session, analytics, durability, replication) and skips the
// other checks; `--lighthouse-runs=N` (default 3) audits each page N times and keeps the median run; `--no-build`
// reuses dist/; `--scale=N` seeds N times the data set (BENCH_DATA_DIR=dir keeps it there for the next run). One module per part in scripts/bench/, with the stack, the budgets and the printing beside them.
import { ensureNodeModules } from "./lib/deps.mjs";
import { ensurePocketBase } from "./lib/pocketbase.mjs";

ensureNodeModules();
ensurePocketBase();
// the parts import npm packages (autocannon, Playwright, the PocketBase SDK): they load once node_modules is there
const { BUILD, wants } = await import("./bench/options.mjs");
const { analyticsWarmUp, buildBundle, seedStack, startStack, SU } = await import("./bench/stack.mjs");
const { firstVisitBytes } = await import("./bench/bytes.mjs");
const { latencies } = await import("./bench/latency.mjs");
const { lighthouseScores } = await import("./bench/lighthouse.mjs");
const { uploadRatio } = await import("./bench/upload.mjs");
const { managerSession } = await import("./bench/session.mjs");
const { analyticsReads } = await import("./bench/analytics.mjs");
const { durabilityCost, printDurability } = await import("./bench/durability.mjs");
const { printReplicationLoss, replicationLoss } = await import("./bench/replication.mjs");
const { evaluate } = await import("./bench/budgets.mjs");
const { print, saveResults } = await import("./bench/print.mjs");

if (BUILD && !buildBundle()) process.exit(1);

const stack = await startStack();
const figures = { bytes: {}, latency: {}, lighthouse: null, upload: null, managerSession: null };
try {
  const { seed, counts, manager } = await seedStack(stack.url, stack.dataDir);
  figures.seed = counts;
  figures.analyticsWarmUp = await analyticsWarmUp(stack);

  if (wants("bytes")) figures.bytes = await firstVisitBytes(stack.url, manager, seed);
  if (wants("latency")) figures.latency = await latencies(stack.url, manager.authStore.token, seed, stack.pid);
  if (wants("lighthouse")) figures.lighthouse = await lighthouseScores(stack.url, manager, seed);
  if (wants("upload")) figures.upload = await uploadRatio(stack.url, SU, seed);
  if (wants("session")) figures.managerSession = await managerSession(stack.url, manager, seed);
  if (wants("analytics")) figures.analytics = await analyticsReads(stack.url, manager.authStore.token, seed, SU, stack.pid);
} finally {
  await stack.stop();
}
// on servers of its own (one as deployed, one without durability), after the shared stack is gone
if (wants("durability")) figures.durability = await durabilityCost();
if (wants("replication")) figures.replication = await replicationLoss();

const checks = evaluate(figures);
print(figures, checks);
if (figures.durability) printDurability(figures.durability);
if (figures.replication) printReplicationLoss(figures.replication);
saveResults(figures, checks);
process.exit(checks.every((c) => c.ok || c.skipped) ? 0 : 1);
