// The stack the bench measures: the production bundle, served by a fresh PocketBase of its own (own port, own data
// directory) holding the issue-8 data set (scripts/bench-seed.mjs). Imports npm packages: load it after
// ensureNodeModules().
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import PocketBase from "pocketbase";
import { candidateKey, seedBench } from "../bench-seed.mjs";
import { LARGE_PIPELINE, SCALE } from "./options.mjs";
import { freePort, root, startPocketBase, UNTHROTTLED } from "../lib/pocketbase.mjs";

export const SU = { email: "bench-superuser@screenroom.test", password: "bench-superuser-password" };

/** `vite build` into dist/, its warnings shown; false when the build failed. */
export function buildBundle() {
  const built = spawnSync(join(root, "node_modules", ".bin", "vite"), ["build", "--logLevel", "warn"], { cwd: root, stdio: "inherit" });
  return built.status === 0;
}

/**
 * A PocketBase on a free port serving dist/, with its data in a new temporary directory and the bench's superuser;
 * its log shown only with BENCH_PB_LOG. `stop()` stops it and deletes the directory.
 */
export async function startStack() {
  // BENCH_DATA_DIR keeps the data (and the seed) between runs, see seedStack
  const kept = process.env.BENCH_DATA_DIR;
  const dataDir = kept || mkdtempSync(join(tmpdir(), "screenroom-bench-"));
  // PocketBase's datetime text of the start (a kept data directory holds the logs of earlier runs)
  const startedAt = new Date(Date.now() - 1000).toISOString().replace("T", " ");
  const pb = await startPocketBase({
    port: await freePort(),
    dataDir,
    publicDir: join(root, "dist"),
    superuser: SU,
    stdio: process.env.BENCH_PB_LOG ? "inherit" : "pipe",
    // MAIL_QUEUE_HOLD: the seeded invitations' e-mails are kept, not retried against a mail server that isn't there
    // (server/internal/mail/mail_queue.go; retrying 19,000 of them took a third of the server's core during every
    // read); SCREENROOM_BENCH_SEED: the bench's seeding route (server/internal/devroutes) exists only with this: its
    // video answers' file
    env: { ...UNTHROTTLED, MAIL_QUEUE_HOLD: "1", SCREENROOM_BENCH_SEED: join(root, "tests", "fixtures", "answer.webm"), APP_URL: "http://bench.invalid", SMTP_HOST: "127.0.0.1", SMTP_PORT: String(await freePort()) },
  });
  return {
    url: pb.url,
    pid: pb.child.pid,
    dataDir,
    startedAt,
    async stop() {
      await pb.stop();
      if (!kept) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Writes the benchmark data set and signs its manager in: the seed's ids and keys, its counts with the seconds the
 * seed took (the figures' `seed`), and the manager's client.
 */
export async function seedStack(url, dataDir) {
  // with BENCH_DATA_DIR, a data set seeded there before at the same scale is measured again (migrations added since
  // have run on it at start): iterating on a server change at --scale=10 without seeding 30,000 candidates each time
  const shape = `scale-${SCALE}${LARGE_PIPELINE ? `-large-pipeline-${LARGE_PIPELINE}` : ""}`;
  const keptSeed = process.env.BENCH_DATA_DIR && join(dataDir, `bench-seed-${shape}.json`);
  let seed;
  let counts;
  if (keptSeed && existsSync(keptSeed)) {
    ({ seed, counts } = JSON.parse(readFileSync(keptSeed, "utf8")));
    console.log(`Reusing the data set seeded in ${dataDir} (${shape}, seeded in ${counts.seconds} s)`);
  } else {
    console.log(`Seeding the benchmark data set (${shape})...`);
    const seedStarted = Date.now();
    seed = await seedBench({ url, superuser: SU, scale: SCALE, largePipeline: LARGE_PIPELINE });
    counts = { scale: SCALE, ...seed.counts, seconds: (Date.now() - seedStarted) / 1000 };
    console.log(`Seeded in ${counts.seconds} s: ${JSON.stringify(seed.counts)}`);
    if (keptSeed) writeFileSync(keptSeed, JSON.stringify({ seed, counts }));
  }

  const manager = new PocketBase(url);
  manager.autoCancellation(false);
  await manager.collection("users").authWithPassword(seed.manager.email, seed.manager.password);
  seed = { ...seed, startKey: await unstartedCandidate(url, seed.jobId) };
  return { seed, counts, manager };
}

/**
 * The key of a candidate of `jobId` who has not started (no consent, no answer): its link opens the start screen,
 * the page a candidate's first visit shows (the seed's own candidates have all answered, so their links open the
 * finish screen). The same candidate on every run over a kept data set; created once.
 */
async function unstartedCandidate(url, jobId) {
  const su = new PocketBase(url);
  su.autoCancellation(false);
  await su.collection("_superusers").authWithPassword(SU.email, SU.password);
  const email = "first-visit@bench.example.com";
  const found = await su.collection("candidates").getList(1, 1, { filter: su.filter("job = {:job} && email = {:email}", { job: jobId, email }) });
  if (found.items[0]) return found.items[0].secret;
  const secret = candidateKey();
  await su.collection("candidates").create({ job: jobId, email, secret });
  return secret;
}

/**
 * The server's analytics warm-up (server/internal/analytics/cache.go computes every company's figures when it starts,
 * at half a core, and logs how long it took): waited for before anything is measured, as a server that has been
 * running does not do it. Up to 5 minutes.
 */
export async function analyticsWarmUp(stack) {
  const admin = new PocketBase(stack.url);
  await admin.collection("_superusers").authWithPassword(SU.email, SU.password);
  const filter = admin.filter('message = "analytics: figures computed" && created >= {:started}', { started: stack.startedAt });
  for (let waited = 0; waited < 300_000; waited += 250) {
    const logs = await admin.logs.getList(1, 1, { filter, sort: "-created" });
    const data = logs.items[0]?.data;
    if (data) return { ms: data.ms, jobs: data.jobs };
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error("the server did not log its analytics warm-up within 5 minutes");
}
