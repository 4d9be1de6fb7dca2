// replication: what a lost disk loses with Litestream replicating the databases (docs/operations.md, "Continuous
// replication"). Each trial is the restore drill of tests/replication.test.ts on a stack of its own
// (scripts/lib/replication-drill.mjs): candidates answering with videos three at a time, PocketBase and Litestream
// killed with SIGKILL after a random 6-10 s of it, the data dir deleted, `npm run restore`, PocketBase started on what
// it restored. Per trial: the answers confirmed before the kill, those lost, how long before the kill the earliest
// lost and the newest kept answers were confirmed (the loss window lies between the two), and the restore's duration. No budget: printed for the docs and the issue's note.
//   node scripts/bench/replication.mjs [--trials=10] [--sync-interval=1s]
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { ensureLitestream, LITESTREAM_VERSION } from "../lib/litestream.mjs";
import { ensurePocketBase, root } from "../lib/pocketbase.mjs";
import { answerStorm, lossOf, loseDisk, restoredAnswers, seedDrill, startDrillStack } from "../lib/replication-drill.mjs";
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
    const { question, candidates } = await seedDrill(stack.url, 600);
    let killed = false;
    const storm = answerStorm(stack.url, { question, candidates, streams: 3, stop: () => killed });
    await new Promise((r) => setTimeout(r, 6000 + Math.random() * 4000));
    const killedAt = await stack.killBoth();
    killed = true;
    const attempts = await storm;
    loseDisk(stack.dataDir);
    const restored = await stack.restore();
    if (restored.status !== 0) throw new Error(`npm run restore failed:\n${restored.output}`);
    await stack.startServer();
    const found = await restoredAnswers(stack.url, attempts);
    const figures = { trial: n, ...lossOf(attempts, found, killedAt), restoreMs: restored.ms };
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
    lost: runs.reduce((sum, r) => sum + r.lost, 0),
    lostBeforeKept: runs.reduce((sum, r) => sum + r.lostBeforeKept, 0),
    confirmed: runs.reduce((sum, r) => sum + r.confirmed, 0),
    restoreMs: median(runs.map((r) => r.restoreMs)),
  };
}

export function printReplicationLoss(r) {
  console.log(`\nLoss window with Litestream ${r.litestream} (REPLICA_SYNC_INTERVAL=${r.syncInterval}), ${r.runs.length} kills while answers arrive`);
  console.log("  the replica held everything up to a moment before the kill: after the earliest lost answer's confirmation, and not before the newest kept one's");
  console.log("  trial  confirmed  lost  earliest lost  newest kept  (ms before the kill)  unconfirmed kept  restore");
  for (const t of r.runs) {
    console.log(
      `  ${String(t.trial).padStart(5)}  ${String(t.confirmed).padStart(9)}  ${String(t.lost).padStart(4)}  ${String(t.lost ? t.lossWindowMs : "-").padStart(13)}  ${String(t.newestKeptMsBeforeKill ?? "-").padStart(11)}  ${" ".repeat(20)}  ${String(t.unconfirmedKept).padStart(16)}  ${`${t.restoreMs} ms`.padStart(8)}`,
    );
  }
  console.log(
    `  loss window: answers confirmed up to ${r.lossWindowMs.max} ms before a kill were lost (median of the trials with a loss: ${r.lossWindowMs.median} ms); ` +
      `${r.lost} of ${r.confirmed} confirmed answers lost, ${r.lostBeforeKept} out of order; restore median ${r.restoreMs} ms`,
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
