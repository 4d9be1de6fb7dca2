// replication: what a lost disk loses with Litestream replicating the databases (docs/operations.md, "Continuous
// replication"). Each trial is the restore drill of tests/replication.test.ts on a stack of its own
// (scripts/lib/replication-drill.mjs): candidates answering with videos three at a time, PocketBase and Litestream
// killed with SIGKILL after a random 6-10 s of it, the data dir deleted, `npm run restore`, PocketBase started on what
// it restored. Meanwhile small writes back to back (marks) time the replica finely: the loss window is the kill's time
// minus the newest restored mark's confirmation. Per trial also the answers confirmed before the kill, those lost, how
// long before the kill the earliest lost and the newest kept answers were confirmed, and the restore's duration. No budget: printed for the docs and the note.
//   node scripts/bench/replication.mjs [--trials=10] [--sync-interval=1s]
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { ensureLitestream, LITESTREAM_VERSION } from "../lib/litestream.mjs";
import { ensurePocketBase, root } from "../lib/pocketbase.mjs";
import { answerStorm, lossOf, loseDisk, markWindow, restoredAnswers, restoredMarks, seedDrill, startDrillStack, writeMarks } from "../lib/replication-drill.mjs";
import { ensureS3Server } from "../lib/s3server.mjs";

const flag = (name, fallback) => process.argv.find((arg) => arg.startsWith(`--${name}=`))?.split("=")[1] ?? fallback;
const TRIALS = Number(flag("trials", "10"));
const SYNC_INTERVAL = flag("sync-interval", "1s");

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function trial(n) {
  mkdirSync(join(root, ".cache", "bench"), { recursive: true });
  const work = mkdtempSync(join(root, ".cache", "bench", "replication-"));
  const stack = await startDrillStack({ workDir: work, syncInterval: SYNC_INTERVAL });
  try {
    const { company, question, candidates } = await seedDrill(stack.url, 1500);
    let killed = false;
    const storm = answerStorm(stack.url, { question, candidates, streams: 3, stop: () => killed });
    const marking = writeMarks(stack.url, { company, stop: () => killed });
    await new Promise((r) => setTimeout(r, 6000 + Math.random() * 4000));
    const killedAt = await stack.killBoth();
    killed = true;
    const attempts = await storm;
    if (attempts.length >= candidates.length) throw new Error(`the storm ran out of candidates (${candidates.length}) before the kill: seed more`);
    const marks = await marking;
    loseDisk(stack.dataDir);
    const restored = await stack.restore();
    if (restored.status !== 0) throw new Error(`npm run restore failed:\n${restored.output}`);
    await stack.startServer();
    const found = await restoredAnswers(stack.url, attempts);
    const figures = { trial: n, ...lossOf(attempts, found, killedAt), window: markWindow(marks, await restoredMarks(stack.url, company), killedAt), restoreMs: restored.ms };
    const withoutVideo = attempts.filter((a) => found.get(a.id)?.answer && !found.get(a.id)?.bytes).length;
    if (withoutVideo) throw new Error(`${withoutVideo} restored answers have no video`);
    return figures;
  } finally {
    await stack.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

export async function replicationLoss({ trials = TRIALS } = {}) {
  ensurePocketBase();
  ensureS3Server();
  ensureLitestream();
  const runs = [];
  for (let n = 1; n <= trials; n++) runs.push(await trial(n));
  return {
    litestream: LITESTREAM_VERSION,
    syncInterval: SYNC_INTERVAL,
    runs,
    lossWindowMs: {
      median: median(runs.filter((r) => r.lost).map((r) => r.lossWindowMs)) ?? 0,
      max: Math.max(...runs.map((r) => r.lossWindowMs)),
    },
    windowMs: {
      median: median(runs.map((r) => r.window.newestKeptMsBeforeKill ?? Infinity)),
      max: Math.max(...runs.map((r) => r.window.newestKeptMsBeforeKill ?? Infinity)),
    },
    lost: runs.reduce((sum, r) => sum + r.lost, 0),
    lostBeforeKept: runs.reduce((sum, r) => sum + r.lostBeforeKept, 0),
    confirmed: runs.reduce((sum, r) => sum + r.confirmed, 0),
    restoreMs: median(runs.map((r) => r.restoreMs)),
  };
}

export function printReplicationLoss(r) {
  console.log(`\nLoss window with Litestream ${r.litestream} (REPLICA_SYNC_INTERVAL=${r.syncInterval}), ${r.runs.length} kills while answers arrive`);
  console.log("  the replica held every change up to a moment before the kill: the marks (small writes back to back) bracket it,");
  console.log("  between the newest mark restored and the earliest lost; the answers (15 kB videos, 3 at a time) show what candidates lose");
  console.log("  trial   marks: newest kept  earliest lost   answers: confirmed  lost  earliest lost  newest kept  in flight kept  restore");
  const ms = (value) => (value === null || value === undefined ? "-" : `${value} ms`);
  for (const t of r.runs) {
    console.log(
      `  ${String(t.trial).padStart(5)}  ${ms(t.window.newestKeptMsBeforeKill).padStart(18)}  ${ms(t.window.earliestLostMsBeforeKill).padStart(13)}  ${String(t.confirmed).padStart(19)}  ${String(t.lost).padStart(4)}  ${ms(t.lost ? t.lossWindowMs : null).padStart(13)}  ${ms(t.newestKeptMsBeforeKill).padStart(11)}  ${String(t.unconfirmedKept).padStart(14)}  ${ms(t.restoreMs).padStart(8)}`,
    );
  }
  console.log(
    `  loss window (kill - newest mark restored): median ${r.windowMs.median} ms, max ${r.windowMs.max} ms; ` +
      `answers: ${r.lost} of ${r.confirmed} confirmed lost, the earliest confirmed ${r.lossWindowMs.max} ms before its kill, ${r.lostBeforeKept} of them confirmed before a kept one (its response came back sooner); restore median ${r.restoreMs} ms`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    const figures = await replicationLoss();
    printReplicationLoss(figures);
    console.log(JSON.stringify(figures));
  } catch (err) {
    console.error(`replication bench failed: ${err.stack ?? err}`);
    process.exit(1);
  }
}
