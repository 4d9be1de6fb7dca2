// Building, provisioning and running the pinned PocketBase. Used by the dev stack, the integration
// tests, the end-to-end stack and the benchmarks, so they all run the same server the same way.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, copyFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import net from "node:net";

export const POCKETBASE_VERSION = "0.39.11";
export const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const cacheDir = join(root, ".cache", "pocketbase");
export const binaryPath = join(cacheDir, `pocketbase-${POCKETBASE_VERSION}`);
export const migrationsDir = join(root, "pocketbase", "pb_migrations");
export const hooksDir = join(root, "pocketbase", "pb_hooks");

export class StackError extends Error {}

/**
 * Rate limits so high they never trigger (pocketbase/pb_hooks/lib/throttle.js reads them): for the shared test and
 * benchmark stacks, whose clients all come from 127.0.0.1 and sign in hundreds of times. The throttling tests start a
 * PocketBase of their own with low limits.
 */
export const UNTHROTTLED = {
  RATE_LIMIT_AUTH: "1000000/1",
  RATE_LIMIT_ACCOUNT_MAIL: "1000000/1",
  RATE_LIMIT_INVITES: "1000000/1",
  MAIL_PER_ADDRESS: "1000000/1",
};

function goBinary() {
  const found = spawnSync("bash", ["-lc", "command -v go || ls /usr/local/go/bin/go 2>/dev/null"], { encoding: "utf8" });
  const path = found.stdout.trim().split("\n")[0];
  return path || null;
}

/** Builds PocketBase from its Go module into .cache/pocketbase once; later calls reuse the binary. */
export function ensurePocketBase({ log = console.log } = {}) {
  if (existsSync(binaryPath)) {
    copyTypes();
    return binaryPath;
  }
  const go = goBinary();
  if (!go) {
    throw new StackError(
      "Go is not installed, and PocketBase is built from its Go module.\n" +
        "Install Go 1.25 or newer (https://go.dev/doc/install, or `apt-get install golang-go` where it is new enough) and run again.",
    );
  }
  log(`Building PocketBase v${POCKETBASE_VERSION} from its Go module (first run only; a few minutes on 2 cores)...`);
  const gobin = join(cacheDir, "gobin");
  mkdirSync(gobin, { recursive: true });
  const result = spawnSync(
    go,
    [
      "install",
      "-ldflags",
      `-s -w -X github.com/pocketbase/pocketbase.Version=${POCKETBASE_VERSION}`,
      `github.com/pocketbase/pocketbase/examples/base@v${POCKETBASE_VERSION}`,
    ],
    { stdio: "inherit", env: { ...process.env, CGO_ENABLED: "0", GOBIN: gobin, GOFLAGS: "-mod=mod" } },
  );
  if (result.status !== 0) {
    throw new StackError(`Building PocketBase failed (go install exited with ${result.status}). See the Go output above.`);
  }
  copyFileSync(join(gobin, "base"), binaryPath);
  copyTypes();
  log(`PocketBase built: ${binaryPath}`);
  return binaryPath;
}

/** The JSVM type definitions, for editors reading pb_hooks and pb_migrations. */
function copyTypes() {
  const target = join(cacheDir, "types.d.ts");
  if (existsSync(target)) return;
  const go = goBinary();
  if (!go) return;
  const modcache = spawnSync(go, ["env", "GOMODCACHE"], { encoding: "utf8" }).stdout.trim();
  const source = join(
    modcache,
    "github.com",
    "pocketbase",
    `pocketbase@v${POCKETBASE_VERSION}`,
    "plugins/jsvm/internal/types/generated/types.d.ts",
  );
  if (existsSync(source)) copyFileSync(source, target);
}

export function portIsFree(port, host = "127.0.0.1") {
  return new Promise((resolveFree) => {
    const server = net.createServer();
    server.once("error", () => resolveFree(false));
    server.once("listening", () => server.close(() => resolveFree(true)));
    server.listen(port, host);
  });
}

export async function assertPortFree(port, what) {
  if (!(await portIsFree(port))) {
    throw new StackError(
      `Port ${port} (${what}) is already in use. Stop whatever uses it (\`lsof -i :${port}\` or \`ss -ltnp | grep ${port}\`) or choose another port.`,
    );
  }
}

/**
 * Waits until `port` can be bound again: after a crash, the process that held it may take a moment to be gone.
 * @param {number} port @param {string} what @param {{ timeoutMs?: number, signal?: AbortSignal }} [options]
 */
export async function waitForPortFree(port, what, { timeoutMs = 30_000, signal } = {}) {
  const deadline = Date.now() + timeoutMs;
  while (!(await portIsFree(port))) {
    signal?.throwIfAborted();
    if (Date.now() > deadline) {
      throw new StackError(
        `Port ${port} (${what}) is still in use after ${timeoutMs / 1000} s. Look for what holds it: \`ss -ltnp | grep ${port}\`.`,
      );
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

export function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
  });
}

/** Creates or updates a superuser; PocketBase's CLI exits 0 even on failure, so its output is checked. */
export function upsertSuperuser({ dataDir, email, password }) {
  const result = spawnSync(
    binaryPath,
    ["superuser", "upsert", email, password, "--dir", dataDir, "--migrationsDir", migrationsDir, "--hooksDir", hooksDir],
    { encoding: "utf8" },
  );
  const output = `${result.stdout}${result.stderr}`;
  if (result.status !== 0 || !/Successfully/i.test(output)) {
    throw new StackError(`Could not create the PocketBase superuser: ${output.trim()}`);
  }
}

async function waitForHealth(url, child, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  let lastError;
  while (Date.now() < deadline) {
    // a child killed by a signal keeps exitCode null: without signalCode this would wait out the whole timeout
    if (child.exitCode !== null || child.signalCode !== null) {
      const how = child.signalCode ? `signal ${child.signalCode}` : `code ${child.exitCode}`;
      throw new StackError(`PocketBase exited with ${how} while starting.`);
    }
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) return;
    } catch (err) {
      lastError = err;
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new StackError(`PocketBase did not become healthy at ${url}: ${lastError}`);
}

/**
 * Starts `pocketbase serve` with the project's migrations and hooks (migrations apply on start).
 * Returns { url, child, stop }.
 * @param {{ port: number, dataDir: string, publicDir?: string, env?: Record<string, string>,
 *   superuser?: { email: string, password: string }, stdio?: "pipe" | "inherit",
 *   onOutput?: (text: string) => void }} options
 */
export async function startPocketBase({
  port,
  dataDir,
  publicDir = join(root, "dist"),
  env = {},
  superuser,
  stdio = "pipe",
  onOutput,
}) {
  ensurePocketBase();
  await assertPortFree(port, "PocketBase");
  mkdirSync(dataDir, { recursive: true });
  if (superuser) upsertSuperuser({ dataDir, ...superuser });
  const args = [
    "serve",
    `--http=127.0.0.1:${port}`,
    `--dir=${dataDir}`,
    `--migrationsDir=${migrationsDir}`,
    `--hooksDir=${hooksDir}`,
    `--publicDir=${publicDir}`,
    "--automigrate=false",
    "--hooksWatch=false",
    // PocketBase turns dev mode (every SQL statement on the console) on by itself when its binary sits under the
    // temp dir, as in a clone made with mktemp: only PB_DEV=1 turns it on
    `--dev=${process.env.PB_DEV === "1" ? "true" : "false"}`,
  ];
  const child = spawn(binaryPath, args, {
    env: { ...process.env, ...env },
    stdio: stdio === "inherit" ? "inherit" : ["ignore", "pipe", "pipe"],
  });
  let output = "";
  if (child.stdout) {
    const collect = (chunk) => {
      output += chunk;
      if (output.length > 200_000) output = output.slice(-100_000);
      onOutput?.(String(chunk));
    };
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
  }
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForHealth(url, child);
  } catch (err) {
    child.kill("SIGTERM");
    throw new StackError(`${err.message}\n${output}`);
  }
  return {
    url,
    child,
    output: () => output,
    stop: () => stopChild(child),
  };
}

export function stopChild(child, signal = "SIGTERM") {
  return new Promise((resolveStop) => {
    if (!child || child.exitCode !== null || child.signalCode) return resolveStop();
    const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
    child.once("exit", () => {
      clearTimeout(timer);
      resolveStop();
    });
    child.kill(signal);
  });
}
