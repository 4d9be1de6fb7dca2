// The stack the bench measures: the production bundle, served by a fresh PocketBase of its own (own port, own data
// directory) holding the issue-8 data set (scripts/bench-seed.mjs). Imports npm packages: load it after
// ensureNodeModules().
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import PocketBase from "pocketbase";
import { seedBench } from "../bench-seed.mjs";
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
  const dataDir = mkdtempSync(join(tmpdir(), "screenroom-bench-"));
  const pb = await startPocketBase({
    port: await freePort(),
    dataDir,
    publicDir: join(root, "dist"),
    superuser: SU,
    stdio: process.env.BENCH_PB_LOG ? "inherit" : "pipe",
    // no mail catcher: invite e-mails fail fast (and are logged) instead of queueing
    env: { ...UNTHROTTLED, APP_URL: "http://bench.invalid", SMTP_HOST: "127.0.0.1", SMTP_PORT: String(await freePort()) },
  });
  return {
    url: pb.url,
    async stop() {
      await pb.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Writes the benchmark data set and signs its manager in: the seed's ids and keys, its counts with the seconds the
 * seed took (the figures' `seed`), and the manager's client.
 */
export async function seedStack(url) {
  console.log("Seeding the benchmark data set...");
  const seedStarted = Date.now();
  const seed = await seedBench({ url, superuser: SU });
  const counts = { ...seed.counts, seconds: (Date.now() - seedStarted) / 1000 };

  const manager = new PocketBase(url);
  manager.autoCancellation(false);
  await manager.collection("users").authWithPassword(seed.manager.email, seed.manager.password);
  return { seed, counts, manager };
}
