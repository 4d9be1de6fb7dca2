// Building, provisioning and running the pinned PocketBase. Used by the dev stack, the integration
// tests, the end-to-end stack and the benchmarks, so they all run the same server the same way.
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import net from "node:net";

export const POCKETBASE_VERSION = "0.39.11";
export const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const cacheDir = join(root, ".cache", "pocketbase");
/** The project's Go module around the pinned PocketBase module (server/: cmd/screenroom, internal/<domain>, go.mod, go.sum). */
export const serverSourceDir = join(root, "server");
export const migrationsDir = join(root, "server", "pb_migrations");

/** The Go sources of the server: a change to any of them builds a new binary. */
function serverSources(dir = serverSourceDir, prefix = "") {
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const name = prefix + entry.name;
    if (entry.isDirectory()) {
      if (entry.name !== "pb_migrations") found.push(...serverSources(join(dir, entry.name), `${name}/`));
    } else if ((entry.name.endsWith(".go") && !entry.name.endsWith("_test.go")) || name === "go.mod" || name === "go.sum") {
      found.push(name);
    }
  }
  return found.sort();
}

function sourceHash() {
  const hash = createHash("sha256");
  for (const name of serverSources()) hash.update(name).update("\0").update(readFileSync(join(serverSourceDir, name))).update("\0");
  return hash.digest("hex").slice(0, 12);
}

/** The built server, named by the hash of its sources (so a checkout of other sources never runs a stale build). */
export const binaryPath = join(cacheDir, `screenroom-pocketbase-${POCKETBASE_VERSION}-${sourceHash()}`);

export class StackError extends Error {}

/**
 * Rate limits so high they never trigger (server/internal/platform/throttle.go reads them): for the shared test and
 * benchmark stacks, whose clients all come from 127.0.0.1 and sign in hundreds of times. The throttling tests start a
 * PocketBase of their own with low limits.
 */
export const UNTHROTTLED = {
  RATE_LIMIT_AUTH: "1000000/1",
  RATE_LIMIT_ACCOUNT_MAIL: "1000000/1",
  RATE_LIMIT_INVITES: "1000000/1",
  MAIL_PER_ADDRESS: "1000000/1",
  RATE_LIMIT_ACCOUNT_SIGNIN: "1000000/1", // failed sign-ins per account (server/internal/accounts)
  BULK_CANDIDATES_PER_HOUR: "999999999", // (at most nine digits) candidates a manager invites by CSV or acts on by bulk actions an hour (server/internal/platform/throttle.go)
  RATE_LIMIT_BULK_ACTIONS: "1000000/1", // bulk decisions, erasures and exports per manager (server/internal/bulk)
  RATE_LIMIT_WEBHOOK_TESTS: "1000000/1", // webhook test events a manager sends (server/internal/webhooks)
  RATE_LIMIT_MESSAGES: "1000000/1", // decision message actions per manager (server/internal/messages)
  RATE_LIMIT_TRANSCRIPT_RETRIES: "1000000/1", // failed transcripts a manager asks for again (server/internal/takes)
  // the mail queue's pace (server/internal/mail): test and bench mail goes to a local MailDev, no need to wait
  MAIL_QUEUE_PER_SECOND: "200",
};

/** The Go toolchain that builds PocketBase: on PATH in a login shell, or /usr/local/go; null when there is none. */
export function goBinary() {
  const found = spawnSync("bash", ["-lc", "command -v go || ls /usr/local/go/bin/go 2>/dev/null"], { encoding: "utf8" });
  const path = found.stdout.trim().split("\n")[0];
  return path || null;
}

/**
 * Builds the server (the project's Go module in server/, around the PocketBase module pinned by its go.mod and
 * go.sum) into .cache/pocketbase once; later calls reuse the binary until a Go source changes.
 */
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
  log(`Building PocketBase v${POCKETBASE_VERSION} (server/cmd/screenroom) from its Go module (first run only; a few minutes on 2 cores)...`);
  mkdirSync(cacheDir, { recursive: true });
  const building = `${binaryPath}.building-${process.pid}`;
  const result = spawnSync(
    go,
    ["build", "-trimpath", "-ldflags", `-s -w -X github.com/pocketbase/pocketbase.Version=${POCKETBASE_VERSION}`, "-o", building, "./cmd/screenroom"],
    { cwd: serverSourceDir, stdio: "inherit", env: { ...process.env, CGO_ENABLED: "0", GOFLAGS: "-mod=readonly" } },
  );
  if (result.status !== 0) {
    rmSync(building, { force: true });
    throw new StackError(`Building PocketBase failed (go build exited with ${result.status}). See the Go output above.`);
  }
  // a rename: a parallel build (two test runs on a fresh clone) never runs a half-written binary
  renameSync(building, binaryPath);
  copyTypes();
  log(`PocketBase built: ${binaryPath}`);
  return binaryPath;
}

/** The JSVM type definitions, for editors reading pb_migrations. */
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

export async function assertPortFree(port, what, host = "127.0.0.1") {
  if (!(await portIsFree(port, host))) {
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
    ["superuser", "upsert", email, password, "--dir", dataDir, "--migrationsDir", migrationsDir],
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
 * @param {{ port: number, host?: string, dataDir: string, publicDir?: string, env?: Record<string, string>,
 *   superuser?: { email: string, password: string }, stdio?: "pipe" | "inherit",
 *   onOutput?: (text: string) => void, wrap?: string[] }} options
 * `wrap`: a command that runs PocketBase (e.g. ["strace", "-f", "-o", file]); `stop` stops PocketBase itself, then
 * the wrapper. `host`: the address it listens on (loopback unless told; production may put it behind a proxy there).
 */
export async function startPocketBase({
  port,
  host = "127.0.0.1",
  dataDir,
  publicDir = join(root, "dist"),
  env = {},
  superuser,
  stdio = "pipe",
  onOutput,
  wrap = [],
}) {
  ensurePocketBase();
  await assertPortFree(port, "PocketBase", host);
  mkdirSync(dataDir, { recursive: true });
  if (superuser) upsertSuperuser({ dataDir, ...superuser });
  const args = [
    "serve",
    `--http=${host}:${port}`,
    `--dir=${dataDir}`,
    `--migrationsDir=${migrationsDir}`,
    `--publicDir=${publicDir}`,
    "--automigrate=false",
    // PocketBase turns dev mode (every SQL statement on the console) on by itself when its binary sits under the
    // temp dir, as in a clone made with mktemp: only PB_DEV=1 turns it on
    `--dev=${process.env.PB_DEV === "1" ? "true" : "false"}`,
  ];
  const [command, ...commandArgs] = [...wrap, binaryPath, ...args];
  const child = spawn(command, commandArgs, {
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
  // a wildcard address is reached on loopback
  const url = `http://${host === "0.0.0.0" ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host}:${port}`;
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
    stop: async () => {
      // a wrapper such as strace may leave its command running when it is stopped: stop that first
      if (wrap.length) for (const pid of childPids(child.pid)) killQuietly(pid, "SIGTERM");
      await stopChild(child);
    },
  };
}

/** The pids of a process's children (Linux), whichever of its threads started them (Go starts them from any). */
export function childPids(pid) {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((task) => {
      try {
        return readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
      } catch {
        return []; // a thread that ended meanwhile
      }
    });
  } catch {
    return [];
  }
}

function killQuietly(pid, signal) {
  try {
    process.kill(pid, signal);
  } catch {
    // gone already
  }
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
