// `npm run serve`: Screenroom in production on this machine. Configured only from the environment or an env file
// (`.env` in the checkout, or `--env-file PATH`; variables already set win over the file); `.env.example` lists
// every variable. Builds the SPA when the sources are newer than dist/ (or with --build), builds the project's
// PocketBase once, then runs PocketBase in production mode (no dev SQL log, the built SPA from its own origin with the
// security headers of server/internal/platform/static.go, migrations applied on start) and the media worker beside it.
//
// First start needs no shell prompt: the superuser is created from SUPERUSER_EMAIL / SUPERUSER_PASSWORD before the
// data dir has a database, and updated when the variables no longer sign in (a changed password). Settings that come
// from the environment (APP_URL, SMTP, sender, rate limits, backups, proxy header) are applied by
// server/internal/platform/settings.go every time PocketBase loads its settings.
//
// With REPLICA_URL set, Litestream runs beside them and replicates both databases to S3-compatible storage
// (scripts/lib/litestream.mjs; docs/operations.md, "Continuous replication"); `npm run restore` brings them back.
//
//   npm run serve                                  every process, each restarted when it dies (scripts/lib/supervise.mjs)
//   node scripts/serve.mjs --only=pocketbase       one of them, for a service manager that restarts it (deploy/systemd)
//   node scripts/serve.mjs --only=worker
//   node scripts/serve.mjs --only=litestream
//   node scripts/serve.mjs --env-file=/etc/screenroom/screenroom.env --no-build
//   node scripts/serve.mjs --prepare               builds what is missing or stale and exits (before starting services)
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { ensureNodeModules, ensureSystemPackages, SYSTEM_PACKAGES } from "./lib/deps.mjs";
import { ensureLitestream, replicaHolds, replicationSettings, startLitestream } from "./lib/litestream.mjs";
import { ensurePocketBase, root, StackError, startPocketBase, stopChild, upsertSuperuser, waitForPortFree } from "./lib/pocketbase.mjs";
import { dropEmptyVariables, loadEnv, productionDataDir } from "./lib/production-env.mjs";
import { describeExit, supervise } from "./lib/supervise.mjs";

const say = (line) => console.error(`[serve] ${line}`);

/** --name=value, --name value, or --flag (true). */
function parseFlags(argv) {
  const flags = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith("--")) throw new StackError(`Unknown argument "${arg}". See the top of scripts/serve.mjs.`);
    const eq = arg.indexOf("=");
    if (eq > 0) flags[arg.slice(2, eq)] = arg.slice(eq + 1);
    else if (["env-file", "only"].includes(arg.slice(2)) && argv[i + 1] !== undefined) flags[arg.slice(2)] = argv[++i];
    else flags[arg.slice(2)] = true;
  }
  for (const name of Object.keys(flags)) {
    if (!["env-file", "only", "build", "no-build", "prepare"].includes(name)) throw new StackError(`Unknown flag --${name}. See the top of scripts/serve.mjs.`);
  }
  if (flags.only !== undefined && !["pocketbase", "worker", "litestream"].includes(flags.only)) {
    throw new StackError(`--only takes pocketbase, worker or litestream, not "${flags.only}".`);
  }
  return flags;
}

/** What the production server needs, read once; a missing variable is named with what it is for. */
function productionConfig(env = process.env) {
  const missing = [];
  const need = (name, what) => {
    const value = (env[name] ?? "").trim();
    if (!value) missing.push(`  ${name.padEnd(20)} ${what}`);
    return value;
  };
  const appUrl = need("APP_URL", "the address people open (https://interviews.example.com): links in e-mails");
  const email = need("SUPERUSER_EMAIL", "the superuser created on first start (the dashboard, the media worker)");
  const password = need("SUPERUSER_PASSWORD", "its password (at least 10 characters)");
  need("SMTP_HOST", "the mail server that sends invitations and account e-mails");
  need("SMTP_PORT", "its port (587 with STARTTLS, 465 with SMTP_TLS=true)");
  need("MAIL_FROM", "the sender address of every e-mail");
  if (missing.length) {
    throw new StackError(`These variables are not set (see .env.example):\n${missing.join("\n")}`);
  }
  if (password.length < 10) throw new StackError("SUPERUSER_PASSWORD must have at least 10 characters (PocketBase's rule).");
  const listen = (env.PB_HTTP ?? "").trim() || "127.0.0.1:8090";
  const colon = listen.lastIndexOf(":");
  const port = Number(listen.slice(colon + 1));
  if (colon < 0 || !Number.isInteger(port) || port <= 0 || port > 65535) {
    throw new StackError(`PB_HTTP must be host:port (e.g. 127.0.0.1:8090), not "${listen}".`);
  }
  const host = listen.slice(0, colon).replace(/^\[|\]$/g, "") || "127.0.0.1";
  const dataDir = productionDataDir(env);
  const publicDir = join(root, "dist");
  const reach = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host;
  return {
    appUrl,
    superuser: { email, password },
    host,
    port,
    dataDir,
    publicDir,
    pbUrl: (env.PB_URL ?? "").trim() || `http://${reach}:${port}`,
    workerId: (env.WORKER_ID ?? "").trim() || undefined,
    replication: replicationSettings(env, dataDir),
  };
}

/** The newest modification time under `path` (a file or a folder), 0 when it is missing. */
function newest(path) {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const entry of readdirSync(path)) latest = Math.max(latest, newest(join(path, entry)));
  return latest;
}

/** Builds the SPA into dist/ when it has no build, or a source is newer than the build (a pulled update). */
function ensureBuild(flags, publicDir) {
  const index = join(publicDir, "index.html");
  const inputs = ["src", "public", "index.html", "vite.config.ts", "package.json", "package-lock.json", join("scripts", "vite-csp.ts")];
  const sourcesAt = Math.max(...inputs.map((input) => newest(join(root, input))));
  const builtAt = existsSync(index) && existsSync(join(publicDir, "csp.json")) ? statSync(index).mtimeMs : 0;
  if (flags["no-build"]) {
    if (!builtAt) throw new StackError("dist/ has no build and --no-build was given: run `npm run build` first.");
    return;
  }
  if (!flags.build && builtAt && builtAt >= sourcesAt) return;
  say(builtAt ? "The sources changed since the last build: building the app (vite build)..." : "Building the app (vite build)...");
  const started = Date.now();
  const result = spawnSync(process.execPath, [join(root, "node_modules", "vite", "bin", "vite.js"), "build", "--logLevel", "warn"], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, VITE_POCKETBASE_URL: "" }, // the API is the page's own origin
  });
  if (result.status !== 0) throw new StackError("Building the app failed: see the output above.");
  say(`App built in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
}

/** True when the superuser of the environment signs in (then nothing is changed, and no session is signed out). */
async function superuserSignsIn(pbUrl, { email, password }) {
  const res = await fetch(`${pbUrl}/api/collections/_superusers/auth-with-password`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ identity: email, password }),
  });
  return res.ok;
}

/** @param {ReturnType<typeof productionConfig>} config @param {{ restart: boolean, signal?: AbortSignal }} context */
async function runPocketBase(config, { restart, signal }) {
  if (restart) await waitForPortFree(config.port, "PocketBase", { signal });
  // A fresh data dir: the superuser exists before the first request, so PocketBase never offers its installer.
  // Later starts do not set the password again: that would renew the superuser's token key and sign the worker out.
  const fresh = !existsSync(join(config.dataDir, "data.db"));
  if (fresh && !restart && config.replication && (await replicaHolds(config.replication, "data.db"))) {
    // a new database here would be replicated over the one the replica holds: a lost disk is restored, not restarted
    throw new StackError(
      `${config.dataDir} has no database, but the replica ${config.replication.url} holds one.\n` +
        "Restore it first: npm run restore (docs/operations.md, \"Continuous replication\"). For a new installation, " +
        "point REPLICA_URL at an empty place.",
    );
  }
  const pb = await startPocketBase({
    port: config.port,
    host: config.host,
    dataDir: config.dataDir,
    publicDir: config.publicDir,
    superuser: fresh ? config.superuser : undefined,
    onOutput: (text) => process.stdout.write(text.replace(/^(?=.)/gm, "[pocketbase] ")),
  });
  if (!(await superuserSignsIn(pb.url, config.superuser))) {
    say(`${config.superuser.email} does not sign in with SUPERUSER_PASSWORD: creating or updating that superuser.`);
    upsertSuperuser({ dataDir: config.dataDir, ...config.superuser });
  }
  return pb.child;
}

/** @param {ReturnType<typeof productionConfig>} config */
async function runWorker(config) {
  const { startWorker } = await import("../worker/run.mjs");
  return startWorker({
    url: config.pbUrl,
    superuser: config.superuser,
    env: config.workerId ? { WORKER_ID: config.workerId } : {},
  });
}

const running = [];
let stopping = false;
async function shutdown(code = 0) {
  if (stopping) return;
  stopping = true;
  await Promise.all(running.map((stop) => stop()));
  process.exit(code);
}
process.on("SIGINT", () => void shutdown(0));
process.on("SIGTERM", () => void shutdown(0));

// `kill <pid of npm run serve>` ends npm but not this process (npm does not pass the signal on): rather than hold the
// port with nobody left to stop it, serve stops itself once the shell npm started it in is gone (as `npm start` does)
if (process.env.npm_lifecycle_event) {
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid === parent) return;
    say("npm run serve was killed; stopping.");
    void shutdown(0);
  }, 1000).unref();
}

/** @param {ReturnType<typeof productionConfig>} config */
async function runLitestream(config) {
  if (!config.replication) throw new StackError("REPLICA_URL is not set: there is nothing to replicate (see .env.example).");
  const litestream = await startLitestream(config.replication, {
    onOutput: (text) => process.stdout.write(text.replace(/^(?=.)/gm, "[litestream] ")),
  });
  return litestream.child;
}

const NAMES = { pocketbase: "PocketBase", worker: "The media worker", litestream: "Litestream" };

/** One process, not restarted here: the service manager (systemd's Restart=on-failure) does that. */
async function runOnly(what, config) {
  const child =
    what === "pocketbase" ? await runPocketBase(config, { restart: false }) : what === "worker" ? await runWorker(config) : await runLitestream(config);
  running.push(() => stopChild(child));
  say(
    what === "pocketbase"
      ? `PocketBase is serving at ${config.pbUrl} (public address ${config.appUrl}).`
      : what === "worker"
        ? `Media worker started against ${config.pbUrl}.`
        : `Litestream is replicating ${config.dataDir} to ${config.replication?.url}.`,
  );
  child.once("exit", (code, signal) => {
    if (stopping) return;
    say(`${NAMES[what]} exited (${describeExit({ code, signal })}).`);
    process.exit(code || 1);
  });
}

async function main() {
  const flags = parseFlags(process.argv.slice(2));
  const envFile = loadEnv(flags["env-file"]);
  dropEmptyVariables();
  const config = productionConfig();
  say(envFile ? `Configuration from ${envFile} and the environment.` : "Configuration from the environment (no .env file).");
  if (flags.only === "worker" || flags.only === "litestream") return runOnly(flags.only, config);

  if (!flags["no-build"]) {
    ensureNodeModules();
    // what the media worker and the answer length check (ffprobe) run; installed when run as root, else named
    // and, with replication, the C compiler Litestream is built with
    const needed = ["ffmpeg", "pocketsphinx", "pocketsphinx-en-us", ...(config.replication ? ["gcc", "libc6-dev"] : [])];
    ensureSystemPackages({ packages: SYSTEM_PACKAGES.filter((p) => needed.includes(p.pkg)), log: say });
  }
  ensureBuild(flags, config.publicDir);
  ensurePocketBase({ log: say });
  if (config.replication) ensureLitestream({ log: say });
  if (flags.prepare) {
    // everything a service started with --no-build needs, built by a user who may write the checkout
    const { buildWorker } = await import("../worker/run.mjs");
    await buildWorker();
    say(`Ready: the app, PocketBase${config.replication ? ", Litestream" : ""} and the media worker are built.`);
    return;
  }
  if (flags.only === "pocketbase") return runOnly("pocketbase", config);

  const pocketbase = supervise({
    name: "PocketBase",
    start: (context) => runPocketBase(config, context),
    hint: `Look at the [pocketbase] lines above: a migration or hook that fails, a full disk or a damaged database in ${config.dataDir}, or another program on port ${config.port}.`,
    log: say,
    onGiveUp: () => void shutdown(1),
  });
  running.push(() => pocketbase.stop());
  await pocketbase.started;
  if (stopping) return;
  if (config.replication) {
    // after PocketBase: Litestream replicates databases that exist, and PocketBase made them on a first start
    if (!process.env.S3_BUCKET) say("Uploaded files are in the data dir and are not replicated: only the databases are (docs/operations.md).");
    const litestream = supervise({
      name: "Litestream",
      start: () => runLitestream(config),
      hint: `Look at the [litestream] lines above: the replica ${config.replication.url} cannot be reached, or its keys are refused.`,
      log: say,
      onGiveUp: () => void shutdown(1),
    });
    running.push(() => litestream.stop());
    await litestream.started;
    if (stopping) return;
    say(`Litestream is replicating the databases to ${config.replication.url}.`);
  }
  const worker = supervise({
    name: "Media worker",
    start: () => runWorker(config),
    hint: "Look at the [worker] lines above, and check that ffmpeg and pocketsphinx are installed.",
    log: say,
    onGiveUp: () => void shutdown(1),
  });
  running.push(() => worker.stop());
  await worker.started;
  if (stopping) return;
  say(`Screenroom is serving at ${config.pbUrl} (public address ${config.appUrl}); data in ${config.dataDir}.`);
}

main().catch(async (err) => {
  if (stopping) return;
  console.error(err instanceof StackError ? `\n${err.message}\n` : err);
  await shutdown(1);
});
