// Runs the media worker: bundles worker/src with the installed esbuild into .cache/worker/<checkout>/main.mjs (a
// fraction of a second; no TypeScript at run time) and starts it.
//   node worker/run.mjs --url http://127.0.0.1:8090 --email ADMIN --password SECRET
//   PB_URL=... PB_SUPERUSER_EMAIL=... PB_SUPERUSER_PASSWORD=... node worker/run.mjs
// `startWorker()` is how `npm start` and the e2e stack run it beside PocketBase.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
// One bundle per checkout: git worktrees of the project may share one .cache (a symlink), and each must run its own
// worker, not the one another checkout built last.
export const bundlePath = join(root, ".cache", "worker", createHash("sha256").update(root).digest("hex").slice(0, 12), "main.mjs");

export async function buildWorker() {
  const { build } = await import("esbuild");
  await build({
    entryPoints: [join(root, "worker", "src", "main.ts")],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    // CommonJS packages in the bundle (prom-client) require Node's modules; an ES module has no `require` of its own
    banner: { js: 'import { createRequire as __workerRequire } from "node:module"; const require = __workerRequire(import.meta.url);' },
    outfile: bundlePath,
    logLevel: "warning",
  });
  return bundlePath;
}

/**
 * Builds and starts the worker as a child process against `url` with superuser credentials (passed in the
 * environment, not on the command line where `ps` shows them). Returns the child.
 * @param {{ url: string, superuser: { email: string, password: string }, env?: Record<string, string>,
 *   onOutput?: (text: string) => void }} options
 */
export async function startWorker({ url, superuser, env = {}, onOutput }) {
  await buildWorker();
  const child = spawn(process.execPath, [bundlePath], {
    env: { ...process.env, PB_URL: url, PB_SUPERUSER_EMAIL: superuser.email, PB_SUPERUSER_PASSWORD: superuser.password, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const forward = (chunk) => (onOutput ? onOutput(String(chunk)) : process.stdout.write(chunk));
  child.stdout.on("data", forward);
  child.stderr.on("data", forward);
  return child;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  await buildWorker();
  await import(pathToFileURL(bundlePath).href); // reads process.argv and the environment itself
}
