// `npm run restore`: brings the databases back from the replica Litestream keeps (REPLICA_URL, docs/operations.md,
// "Continuous replication"), after a lost disk or to undo a mistake. Configured like `npm run serve` (`.env` or
// --env-file, PB_DATA_DIR, the REPLICA_* and S3_* variables). Stop the server first: it refuses while PocketBase or
// Litestream still run on this data dir. The databases there now, if any, are moved aside, never deleted.
//
//   npm run restore                                        the newest state the replica holds
//   npm run restore -- --to=2030-01-02T03:04:05Z           the state at that time (UTC, or with an offset)
//   npm run restore -- --dry-run                           only print what would be restored
//   node scripts/restore.mjs --env-file=/etc/screenroom/screenroom.env --to=...
import { existsSync } from "node:fs";
import { join } from "node:path";
import { listDatabases, replicationSettings, restoreDatabases, runLitestream } from "./lib/litestream.mjs";
import { StackError } from "./lib/pocketbase.mjs";
import { dropEmptyVariables, loadEnv, productionDataDir } from "./lib/production-env.mjs";

const say = (line) => console.error(`[restore] ${line}`);

function parseFlags(argv) {
  const flags = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith("--")) throw new StackError(`Unknown argument "${arg}". See the top of scripts/restore.mjs.`);
    const eq = arg.indexOf("=");
    const name = eq > 0 ? arg.slice(2, eq) : arg.slice(2);
    if (!["env-file", "to", "dry-run"].includes(name)) throw new StackError(`Unknown flag --${name}. See the top of scripts/restore.mjs.`);
    if (eq > 0) flags[name] = arg.slice(eq + 1);
    else if (name !== "dry-run" && argv[i + 1] !== undefined) flags[name] = argv[++i];
    else flags[name] = true;
  }
  if (flags.to !== undefined && (flags.to === true || Number.isNaN(Date.parse(flags.to)))) {
    throw new StackError(`--to takes a time such as 2030-01-02T03:04:05Z, not "${flags.to === true ? "" : flags.to}".`);
  }
  return flags;
}

/** True when PocketBase answers at PB_HTTP. */
async function pocketBaseAnswers(env) {
  const listen = (env.PB_HTTP ?? "").trim() || "127.0.0.1:8090";
  const host = listen.slice(0, listen.lastIndexOf(":")).replace(/^\[|\]$/g, "");
  const reach = !host || host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host;
  try {
    await fetch(`http://${reach}:${listen.slice(listen.lastIndexOf(":") + 1)}/api/health`, { signal: AbortSignal.timeout(2000) });
    return true;
  } catch {
    return false;
  }
}

async function main() {
  const flags = parseFlags(process.argv.slice(2));
  const envFile = loadEnv(flags["env-file"]);
  dropEmptyVariables();
  const dataDir = productionDataDir();
  const settings = replicationSettings(process.env, dataDir);
  if (!settings) throw new StackError("REPLICA_URL is not set: there is no replica to restore from (see .env.example).");
  say(`${envFile ? `Configuration from ${envFile} and the environment` : "Configuration from the environment"}; data dir ${dataDir}.`);

  if (flags["dry-run"]) {
    for (const db of settings.databases) {
      const args = ["restore", "-config", settings.configPath, "-no-expand-env", "-dry-run", "-o", join(settings.dir, `plan-${db.name}`)];
      if (flags.to) args.push("-timestamp", new Date(flags.to).toISOString().replace(/\.\d{3}Z$/, "Z"));
      const result = await runLitestream(settings, [...args, db.path]);
      process.stdout.write(result.stdout);
      if (result.status !== 0) throw new StackError(`No restore plan for ${db.name}:\n${(result.stderr || result.stdout).trim()}`);
    }
    return;
  }

  if (await pocketBaseAnswers(process.env)) {
    throw new StackError(`PocketBase is running at ${process.env.PB_HTTP || "127.0.0.1:8090"}: stop the server first (systemctl stop screenroom-pocketbase screenroom-litestream, or end npm run serve).`);
  }
  if (existsSync(settings.socketPath) && (await listDatabases(settings.socketPath).catch(() => null))) {
    throw new StackError("Litestream is still replicating this data dir: stop it first (systemctl stop screenroom-litestream, or end npm run serve).");
  }
  const started = Date.now();
  const { movedAside, restored } = await restoreDatabases(settings, { timestamp: flags.to, log: say });
  say(`Restored ${restored.join(" and ")} into ${dataDir} in ${((Date.now() - started) / 1000).toFixed(1)} s${movedAside ? `; the previous files are in ${movedAside}` : ""}.`);
  say("Start the server again (npm run serve, or systemctl start screenroom-pocketbase screenroom-litestream): Litestream replicates the restored databases from there.");
}

main().catch((err) => {
  console.error(err instanceof StackError ? `\n${err.message}\n` : err);
  process.exit(1);
});
