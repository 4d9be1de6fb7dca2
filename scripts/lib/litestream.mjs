// Continuous replication of the server's SQLite databases (data.db and auxiliary.db) to S3-compatible storage:
// Litestream, built from its Go module at a pinned version (scripts/lib/go-tools.mjs), never a downloaded binary, and
// run as its own process beside PocketBase (scripts/serve.mjs). It is built with cgo and the machine's gcc, as the
// project decided for it; in v0.5.18 that reaches only Go's net and os/user (names and users are looked up through
// the C library, as the rest of the system does), since its SQLite driver is modernc.org/sqlite, in Go.
//
// Everything comes from the environment (.env.example, "Continuous replication"): REPLICA_URL turns it on; the
// endpoint, region, keys and path style default to the S3_* settings of the files' bucket. Litestream's local state
// (its configuration, each database's metadata, its control socket) lives in <data dir>/litestream, a folder the
// server leaves out of its backup zips (server/internal/replication). The configuration holds no secret: the keys
// reach Litestream through its own environment variables.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureGoTool } from "./go-tools.mjs";
import { StackError, stopChild } from "./pocketbase.mjs";

/** The pinned release (the newest the Go module proxy serves here); v0.5 needs Go 1.26. */
export const LITESTREAM_VERSION = "v0.5.18";
export const LITESTREAM_MODULE = "github.com/benbjohnson/litestream";

/** The databases PocketBase keeps in its data dir, both replicated. */
export const DATABASES = ["data.db", "auxiliary.db"];

/** Litestream's folder in the data dir (server/internal/replication's Dir). */
export const LITESTREAM_DIR = "litestream";

/** Builds cmd/litestream at the pinned version into .cache/litestream once. */
export function ensureLitestream({ log = console.log } = {}) {
  return ensureGoTool({
    name: "litestream",
    module: LITESTREAM_MODULE,
    command: "cmd/litestream",
    version: LITESTREAM_VERSION,
    what: "continuous replication of the databases",
    cgo: true,
    minGo: "1.26",
    ldflags: `-X main.Version=${LITESTREAM_VERSION}`,
    log,
  });
}

/** @param {string | undefined} value */
const trimmed = (value) => (value ?? "").trim();

const DURATION = /^(\d+(\.\d+)?(ms|s|m|h))+$/;

/**
 * The replication settings of the environment, or null when REPLICA_URL is unset (no replication). Throws a
 * StackError naming the variable when one is malformed.
 * @param {Record<string, string | undefined>} env
 * @param {string} dataDir PocketBase's data dir (absolute)
 */
export function replicationSettings(env, dataDir) {
  // each variable read by its own name on env, so the docs' check finds it (scripts/docs-check.ts)
  const url = trimmed(env.REPLICA_URL).replace(/\/+$/, "");
  if (!url) return null;
  const scheme = /^([a-z0-9]+):\/\/[^/]+/.exec(url)?.[1];
  if (!scheme) throw new StackError(`REPLICA_URL must be a URL such as s3://my-bucket/screenroom, not "${url}".`);
  const s3 = scheme === "s3";
  const duration = (name, value, fallback) => {
    const chosen = trimmed(value) || fallback;
    if (!DURATION.test(chosen)) throw new StackError(`${name} must be a duration such as 1s, 500ms, 24h, not "${chosen}".`);
    return chosen;
  };
  // unset: Litestream's own rule (path style whenever an endpoint is set)
  const pathStyle = (trimmed(env.REPLICA_FORCE_PATH_STYLE) || trimmed(env.S3_FORCE_PATH_STYLE)).toLowerCase();
  if (!["", "true", "false"].includes(pathStyle)) throw new StackError(`REPLICA_FORCE_PATH_STYLE must be true or false, not "${pathStyle}".`);
  const metricsAddr = trimmed(env.REPLICA_METRICS_ADDR) || "127.0.0.1:9095";
  if (metricsAddr !== "off" && !/^[^:]*:\d+$/.test(metricsAddr) && !/^\[[^\]]+\]:\d+$/.test(metricsAddr)) {
    throw new StackError(`REPLICA_METRICS_ADDR must be host:port (127.0.0.1:9095) or off, not "${metricsAddr}".`);
  }
  const s3Value = (own, files) => (s3 ? trimmed(own) || trimmed(files) : "");
  const endpoint = s3Value(env.REPLICA_ENDPOINT, env.S3_ENDPOINT);
  const region = s3Value(env.REPLICA_REGION, env.S3_REGION);
  const accessKey = s3Value(env.REPLICA_ACCESS_KEY, env.S3_ACCESS_KEY);
  const secret = s3Value(env.REPLICA_SECRET, env.S3_SECRET);
  const syncInterval = duration("REPLICA_SYNC_INTERVAL", env.REPLICA_SYNC_INTERVAL, "1s");
  const snapshotInterval = duration("REPLICA_SNAPSHOT_INTERVAL", env.REPLICA_SNAPSHOT_INTERVAL, "1h");
  const retention = duration("REPLICA_RETENTION", env.REPLICA_RETENTION, "72h");
  const dir = join(dataDir, LITESTREAM_DIR);
  const socketPath = join(dir, "control.sock");
  // a unix socket's path has room for 107 bytes
  if (Buffer.byteLength(socketPath) > 107) throw new StackError(`PB_DATA_DIR is too long for Litestream's control socket (${socketPath}): use a shorter path.`);
  return {
    url,
    s3,
    endpoint,
    region,
    accessKey,
    secret,
    forcePathStyle: pathStyle === "" ? null : pathStyle === "true",
    syncInterval,
    snapshotInterval,
    retention,
    metricsAddr: metricsAddr === "off" ? "" : metricsAddr,
    dataDir,
    dir,
    configPath: join(dir, "litestream.yml"),
    socketPath,
    databases: DATABASES.map((name) => ({ name, path: join(dataDir, name), replicaUrl: `${url}/${name}`, metaPath: join(dir, `${name}-meta`) })),
  };
}

/** @typedef {NonNullable<ReturnType<typeof replicationSettings>>} ReplicationSettings */

/**
 * A YAML scalar in double quotes (JSON's escapes are YAML's). Litestream is always run with -no-expand-env, so a `$`
 * in a path or URL stays one.
 */
const q = (value) => JSON.stringify(String(value));

/**
 * Litestream's configuration for these settings. The monitor interval (how often it reads the WAL) follows the sync
 * interval (how often it uploads), so the loss window is bounded by about twice the sync interval plus an upload.
 * @param {ReplicationSettings} settings
 */
export function litestreamConfig(settings) {
  const lines = [
    "# Written by scripts/lib/litestream.mjs from the environment on every start; edits are overwritten.",
    ...(settings.metricsAddr ? [`addr: ${q(settings.metricsAddr)}`] : []),
    "socket:",
    "  enabled: true",
    `  path: ${q(settings.socketPath)}`,
    "  permissions: 0600",
    "snapshot:",
    `  interval: ${q(settings.snapshotInterval)}`,
    `  retention: ${q(settings.retention)}`,
    "dbs:",
  ];
  for (const db of settings.databases) {
    lines.push(
      `  - path: ${q(db.path)}`,
      `    meta-path: ${q(db.metaPath)}`,
      `    monitor-interval: ${q(settings.syncInterval)}`,
      "    replica:",
      `      url: ${q(db.replicaUrl)}`,
      `      sync-interval: ${q(settings.syncInterval)}`,
    );
    if (settings.s3) {
      if (settings.endpoint) lines.push(`      endpoint: ${q(settings.endpoint)}`);
      if (settings.region) lines.push(`      region: ${q(settings.region)}`);
      if (settings.forcePathStyle !== null) lines.push(`      force-path-style: ${settings.forcePathStyle}`);
    }
  }
  return `${lines.join("\n")}\n`;
}

/**
 * The environment Litestream runs with: the keys as its own variables (the configuration file holds none), and no
 * AWS_* keys of the machine's that would win over them.
 * @param {ReplicationSettings} settings
 */
function litestreamEnv(settings, env = process.env) {
  const own = { ...env };
  // Litestream gives the AWS SDK an HTTP client of its own, and the SDK then refuses to load at all when
  // AWS_CA_BUNDLE is set ("unable to add custom RootCAs HTTPClient"): the bundle goes to Go's own variable instead
  if (own.AWS_CA_BUNDLE) {
    own.SSL_CERT_FILE ??= own.AWS_CA_BUNDLE;
    delete own.AWS_CA_BUNDLE;
  }
  if (settings.accessKey) {
    delete own.AWS_ACCESS_KEY_ID;
    delete own.AWS_SECRET_ACCESS_KEY;
    own.LITESTREAM_ACCESS_KEY_ID = settings.accessKey;
    own.LITESTREAM_SECRET_ACCESS_KEY = settings.secret;
  }
  return own;
}

/** Writes the configuration into <data dir>/litestream (0700, the file 0600) and returns its path. @param {ReplicationSettings} settings */
export function writeLitestreamConfig(settings) {
  mkdirSync(settings.dir, { recursive: true, mode: 0o700 });
  const temp = `${settings.configPath}.${process.pid}`;
  writeFileSync(temp, litestreamConfig(settings), { mode: 0o600 });
  renameSync(temp, settings.configPath);
  return settings.configPath;
}

/**
 * Runs `litestream <args>` to completion with the settings' configuration and keys; resolves with its status and
 * output. A child process, never spawnSync: a caller that also reads the output of other children (the S3 server of
 * the tests) must keep its event loop running.
 * @param {ReplicationSettings} settings @param {string[]} args
 * @returns {Promise<{ status: number | null, stdout: string, stderr: string }>}
 */
export function runLitestream(settings, args, { binary = ensureLitestream({ log: () => {} }) } = {}) {
  writeLitestreamConfig(settings);
  const child = spawn(binary, args, { env: litestreamEnv(settings), stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (status) => resolve({ status, stdout, stderr }));
  });
}

/**
 * Whether the replica holds a database named `name` (data.db): a restore plan exists for it.
 * @param {ReplicationSettings} settings @param {string} name
 */
export async function replicaHolds(settings, name) {
  const db = settings.databases.find((d) => d.name === name);
  if (!db) throw new Error(`not a replicated database: ${name}`);
  const probe = join(settings.dir, `probe-${process.pid}.db`);
  const result = await runLitestream(settings, ["restore", "-config", settings.configPath, "-no-expand-env", "-dry-run", "-json", "-o", probe, db.path]);
  if (result.status === 0) return true;
  // "no matching backup files available" is Litestream's way of saying the replica is empty; anything else fails
  if (/no matching backup/i.test(result.stderr + result.stdout)) return false;
  throw new StackError(`Litestream could not read the replica ${db.replicaUrl}:\n${(result.stderr || result.stdout).trim()}`);
}

/**
 * Starts `litestream replicate` for the settings; resolves once its control socket answers, with the child and its
 * output so far.
 * @param {ReplicationSettings} settings
 * @param {{ onOutput?: (text: string) => void, timeoutMs?: number }} [options]
 */
export async function startLitestream(settings, { onOutput, timeoutMs = 30_000 } = {}) {
  const binary = ensureLitestream();
  writeLitestreamConfig(settings);
  for (const db of settings.databases) {
    if (!existsSync(db.path)) throw new StackError(`${db.path} does not exist: start PocketBase before Litestream.`);
  }
  // a socket left by a Litestream that was killed is removed by the next one, which listens there
  const child = spawn(binary, ["replicate", "-config", settings.configPath, "-no-expand-env"], { env: litestreamEnv(settings), stdio: ["ignore", "pipe", "pipe"] });
  let text = "";
  const collect = (chunk) => {
    text += chunk;
    if (text.length > 200_000) text = text.slice(-100_000);
    onOutput?.(String(chunk));
  };
  child.stdout.on("data", collect);
  child.stderr.on("data", collect);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new StackError(`Litestream exited while starting:\n${text}`);
    const replicating = await listDatabases(settings.socketPath).catch(() => null);
    if (replicating && replicating.length === settings.databases.length) break;
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new StackError(`Litestream did not open its control socket ${settings.socketPath} within ${timeoutMs / 1000} s:\n${text}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, output: () => text, stop: () => stopChild(child) };
}

/**
 * Litestream's own account of each database (GET /list on its control socket): path, status and when the replica
 * last held every change Litestream had read (last_sync_at).
 * @param {string} socketPath
 * @returns {Promise<{ path: string, status: string, last_sync_at?: string }[]>}
 */
export async function listDatabases(socketPath) {
  const http = await import("node:http");
  return new Promise((resolve, reject) => {
    const req = http.request({ socketPath, path: "/list", method: "GET", timeout: 5000 }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => (body += chunk));
      res.on("end", () => {
        if (res.statusCode !== 200) return reject(new Error(`litestream /list answered ${res.statusCode}: ${body}`));
        try {
          resolve(JSON.parse(body).databases ?? []);
        } catch (err) {
          reject(err);
        }
      });
    });
    req.on("timeout", () => req.destroy(new Error("litestream /list timed out")));
    req.on("error", reject);
    req.end();
  });
}

/**
 * Restores every replicated database into the data dir, as of `timestamp` (an RFC 3339 time) or the newest state.
 * The databases are restored beside the data dir's own first and checked (quick_check); only then are the current
 * files (if any) moved aside into <data dir>/before-restore-<time>/ (never deleted), the restored ones moved in, and
 * Litestream's metadata cleared, so the next start replicates the restored databases as a new lineage.
 * PocketBase and Litestream must be stopped. Returns the folder the old files went to (or null) and what was restored.
 * @param {ReplicationSettings} settings
 * @param {{ timestamp?: string, log?: (line: string) => void }} [options]
 */
export async function restoreDatabases(settings, { timestamp, log = console.log } = {}) {
  if (timestamp !== undefined && Number.isNaN(Date.parse(timestamp))) {
    throw new StackError(`The time to restore to must be an ISO 8601 time such as 2030-01-02T03:04:05Z, not "${timestamp}".`);
  }
  const binary = ensureLitestream({ log });
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const staging = join(settings.dataDir, `.restoring-${stamp}`);
  mkdirSync(staging, { recursive: true, mode: 0o700 });
  const restored = [];
  try {
    for (const db of settings.databases) {
      const out = join(staging, db.name);
      const args = ["restore", "-config", settings.configPath, "-no-expand-env", "-o", out, "-integrity-check", "quick"];
      // RFC 3339 in UTC, as Litestream parses it
      if (timestamp !== undefined) args.push("-timestamp", new Date(timestamp).toISOString().replace(/\.\d{3}Z$/, "Z"));
      args.push(db.path);
      log(`Restoring ${db.name} from ${db.replicaUrl}${timestamp ? ` as of ${timestamp}` : ""}...`);
      const result = await runLitestream(settings, args, { binary });
      if (result.status !== 0) {
        throw new StackError(`Restoring ${db.name} failed (litestream restore exited with ${result.status}):\n${(result.stderr || result.stdout).trim()}`);
      }
      restored.push(db.name);
    }
    let movedAside = null;
    const current = settings.databases.flatMap((db) => ["", "-wal", "-shm"].map((suffix) => `${db.name}${suffix}`)).filter((name) => existsSync(join(settings.dataDir, name)));
    if (current.length) {
      movedAside = join(settings.dataDir, `before-restore-${stamp}`);
      mkdirSync(movedAside, { recursive: true, mode: 0o700 });
      for (const name of current) renameSync(join(settings.dataDir, name), join(movedAside, name));
      log(`The databases that were there are kept in ${movedAside}.`);
    }
    for (const name of restored) renameSync(join(staging, name), join(settings.dataDir, name));
    // Litestream's tips: a database replaced under it needs its metadata cleared
    for (const db of settings.databases) rmSync(db.metaPath, { recursive: true, force: true });
    return { movedAside, restored };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
