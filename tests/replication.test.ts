// Continuous replication: a server as deployed with REPLICA_URL (its files on an S3 server on loopback, versitygw;
// Litestream, built from its Go module by scripts/lib/litestream.mjs, replicating data.db and auxiliary.db to the same
// S3 server). Litestream reports each database reaching the replica; `npm run restore` brings back the state at a
// point in time, and refuses while the server runs. The restore drill: candidates answer with videos, PocketBase and
// Litestream are killed with SIGKILL while answers are still arriving (the machine lost), the data dir is deleted,
// `npm run restore` runs, and the answers come back as a prefix of what was confirmed, each with its video, up to a
// moment shortly before the kill. The loss window itself is printed by scripts/bench/replication.mjs, not asserted here.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listDatabases, replicaHolds, replicationSettings } from "../scripts/lib/litestream.mjs";
import { freePort, startPocketBase, UNTHROTTLED } from "../scripts/lib/pocketbase.mjs";
import {
  answerStorm,
  drillSuperuser,
  lossOf,
  loseDisk,
  restoredAnswers,
  seedDrill,
  sendAnswer,
  startDrillStack,
} from "../scripts/lib/replication-drill.mjs";
import { listKeys } from "./s3-support";

// REPLICA_SYNC_INTERVAL of the drill (the product's default): Litestream reads new changes from the WAL every quarter
// of it (scripts/lib/litestream.mjs) and uploads every interval, so on a quiet machine a change is in the replica about
// 1.25 intervals and an upload after its commit; scripts/bench/replication.mjs measures that window (docs/benchmarks.md).
// The drill asserts what holds on any machine: the replica is a prefix of the commits (no answer is lost while a later
// one comes back), and replication keeps up (nothing confirmed KEPT_UP_MS before the kill is lost: a few times the
// window, since a loaded 2-core CI machine stretches it to about two seconds).
const SYNC_INTERVAL_MS = 1000;
const KEPT_UP_MS = 5000;
// The storm runs STORM_MS before the kill, or less on a fast machine: once STORM_MIN_MS have passed and three
// quarters of the candidates have answered (a fast CI machine sent 1,196 answers in 12 s), so that answers are still
// arriving when the machine is lost, and enough were confirmed KEPT_UP_MS before it.
const STORM_MS = 12_000;
const STORM_MIN_MS = KEPT_UP_MS + 3000;
const SEEDED = 2000;

let work: string;
let stack: Awaited<ReturnType<typeof startDrillStack>>;
let seeded: Awaited<ReturnType<typeof seedDrill>>;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "screenroom-replication-"));
  // the first run on a machine builds versitygw and Litestream from their Go modules (`npm test` does it before the
  // suites): minutes
  stack = await startDrillStack({ workDir: work, syncInterval: `${SYNC_INTERVAL_MS}ms` });
  seeded = await seedDrill(stack.url, SEEDED);
}, 1_800_000);

afterAll(async () => {
  await stack?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

/** Litestream's last_sync_at of each database, by file name. */
async function lastSyncs(socketPath: string): Promise<Record<string, number | undefined>> {
  const list = await listDatabases(socketPath);
  return Object.fromEntries(list.map((db) => [db.path.split("/").pop()!, db.last_sync_at ? Date.parse(db.last_sync_at) : undefined]));
}

/** Waits until Litestream says both databases reached the replica after `after` (ms). */
async function replicatedAfter(after: number, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const syncs = await lastSyncs(stack.settings.socketPath);
    if ((syncs["data.db"] ?? 0) > after && (syncs["auxiliary.db"] ?? 0) > after) return syncs;
    if (Date.now() > deadline) expect(syncs, `both databases replicated after ${new Date(after).toISOString()}`).toBe("reached");
    await new Promise((r) => setTimeout(r, 100));
  }
}

const s3Target = () => ({ url: stack.s3.url, bucket: stack.s3.bucket, accessKey: stack.s3.accessKey, secret: stack.s3.secret, region: stack.s3.region });

describe("continuous replication with Litestream", () => {
  it("replicates data.db and auxiliary.db to the bucket, and says when each last reached it", async () => {
    const answered = await sendAnswer(stack.url, seeded.candidates[0]!, seeded.question);
    expect(answered.error).toBeUndefined();
    const syncs = await replicatedAfter(answered.confirmedAt!);
    expect(Object.keys(syncs).sort()).toEqual(["auxiliary.db", "data.db"]);
    // each database under its own name below REPLICA_URL, beside the files' objects in the same bucket
    const keys = await listKeys(s3Target(), "replica/");
    for (const name of ["data.db", "auxiliary.db"]) expect(keys.some((key) => key.startsWith(`replica/${name}/`))).toBe(true);
    expect(await replicaHolds(stack.settings, "data.db")).toBe(true);
    // an empty place holds nothing (serve refuses to start a fresh data dir only over a replica that holds one)
    const elsewhere = replicationSettings({ ...stack.env, REPLICA_URL: `s3://${stack.s3.bucket}/nothing-here` }, join(work, "elsewhere"))!;
    expect(await replicaHolds(elsewhere, "data.db")).toBe(false);
    // Litestream's own metrics on loopback (REPLICA_METRICS_ADDR): its position in each database
    const metrics = await (await fetch(`http://${stack.env.REPLICA_METRICS_ADDR}/metrics`)).text();
    for (const name of ["data.db", "auxiliary.db"]) {
      expect(metrics).toMatch(new RegExp(`^litestream_txid\\{db="${stack.dataDir}/${name.replace(".", "\\.")}"\\} [1-9]`, "m"));
    }
  });

  it("restores the state at a point in time with one command, and refuses while the server runs", async () => {
    const before = await sendAnswer(stack.url, seeded.candidates[1]!, seeded.question);
    expect(before.error).toBeUndefined();
    await replicatedAfter(before.confirmedAt!);
    // Litestream's times have whole seconds: a point two seconds clear of either answer
    await new Promise((r) => setTimeout(r, 2000));
    const pointInTime = new Date(Math.floor(Date.now() / 1000) * 1000).toISOString();
    await new Promise((r) => setTimeout(r, 2000));
    const after = await sendAnswer(stack.url, seeded.candidates[2]!, seeded.question);
    expect(after.error).toBeUndefined();
    await replicatedAfter(after.confirmedAt!);

    // the server still runs on this data dir: the restore refuses and changes nothing
    const refused = await stack.restore({ to: pointInTime });
    expect(refused.status).toBe(1);
    expect(refused.output).toContain("PocketBase is running");

    // the same command for another data dir and port (a second machine): the state at that time
    const other = join(work, "point-in-time");
    const port = await freePort();
    const result = await stack.restore({ to: pointInTime, env: { PB_DATA_DIR: other, PB_HTTP: `127.0.0.1:${port}` } });
    expect(result.output).toContain("Restored data.db and auxiliary.db");
    expect(result.status).toBe(0);
    const pb = await startPocketBase({ port, dataDir: other, publicDir: join(work, "public"), env: { ...UNTHROTTLED, APP_URL: "http://drill.invalid" } });
    try {
      const found = await restoredAnswers(pb.url, [before, after]);
      expect(found.get(before.id)).toEqual({ answer: true, video: true, bytes: true });
      expect(found.get(after.id)).toEqual({ answer: false, video: false, bytes: false });
    } finally {
      await pb.stop();
    }
  });

  it(
    "the restore drill: the server killed while answers arrive and its data dir deleted, the answers come back as a " +
      "prefix of what was confirmed, each with its video, up to a moment shortly before the kill",
    async () => {
      const candidates = seeded.candidates.slice(3);
      let killedAt = 0;
      let sent = 0;
      const startedAt = Date.now();
      const storm = answerStorm(stack.url, {
        question: seeded.question,
        candidates,
        streams: 3,
        stop: () => killedAt > 0,
        onSend: (n) => (sent = n),
      });
      // answers keep arriving for a while, then the machine is lost in the middle of them
      for (;;) {
        const elapsed = Date.now() - startedAt;
        if (elapsed >= STORM_MS || (elapsed >= STORM_MIN_MS && sent >= (candidates.length * 3) / 4)) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      killedAt = await stack.killBoth();
      const attempts = await storm;
      expect(attempts.length, "the storm ran out of candidates before the kill").toBeLessThan(candidates.length - 1);
      const confirmed = attempts.filter((a) => a.confirmedAt !== undefined);
      const mustBeThere = confirmed.filter((a) => a.confirmedAt! <= killedAt - KEPT_UP_MS);
      // enough answers on both sides of the line for the drill to mean something
      expect(mustBeThere.length).toBeGreaterThanOrEqual(10);
      expect(attempts.some((a) => a.error !== undefined || a.confirmedAt! > killedAt - KEPT_UP_MS)).toBe(true);

      loseDisk(stack.dataDir);
      const restored = await stack.restore();
      expect(restored.output).toContain("Restored data.db and auxiliary.db");
      expect(restored.status).toBe(0);
      await stack.startServer();

      const found = await restoredAnswers(stack.url, attempts);
      const missing = mustBeThere.filter((a) => JSON.stringify(found.get(a.id)) !== JSON.stringify({ answer: true, video: true, bytes: true }));
      expect(missing.map((a) => ({ id: a.id, msBeforeKill: killedAt - a.confirmedAt!, found: found.get(a.id) }))).toEqual([]);
      // a prefix: an answer confirmed before another was even sent was committed first, so it cannot be lost while
      // the later one comes back
      const kept = attempts.filter((a) => found.get(a.id)?.answer);
      const holes = confirmed.filter((a) => !found.get(a.id)?.answer && kept.some((k) => k.sentAt > a.confirmedAt!));
      expect(holes.map((a) => ({ id: a.id, msBeforeKill: killedAt - a.confirmedAt! }))).toEqual([]);
      // every restored answer has its video, those in flight at the kill included: the file reaches the bucket before
      // the row that names it is written
      for (const a of attempts) if (found.get(a.id)?.answer) expect(found.get(a.id), a.id).toEqual({ answer: true, video: true, bytes: true });
      console.log(`restore drill: ${JSON.stringify(lossOf(attempts, found, killedAt))}, restore ${restored.ms} ms`);

      // the restored server answers and is replicated again from where it stands
      await stack.startReplication();
      const su = await drillSuperuser(stack.url);
      expect((await su.collection("answers").getList(1, 1)).totalItems).toBeGreaterThanOrEqual(mustBeThere.length);
      const next = await sendAnswer(stack.url, candidates[candidates.length - 1]!, seeded.question);
      expect(next.error).toBeUndefined();
      await replicatedAfter(next.confirmedAt!);
    },
    600_000,
  );
});
