// `npm run requeue`: puts failed transcripts back in the media worker's queue (docs/operations.md, "The media
// worker"), through the server's own `screenroom requeue-transcripts` (server/internal/takes/transcript_retry.go) on
// the production data dir. Configured like `npm run serve` (`.env` or --env-file, PB_DATA_DIR). Runs while the server
// runs; the worker takes the requeued answers at its next scan (WORKER_RESCAN_SECONDS). Run it as the user the server
// runs as (sudo -u screenroom), so the database keeps its owner.
//
//   npm run requeue                          every failed transcript
//   npm run requeue -- --answer=ID           one video answer's (its id in video_answers)
//   node scripts/requeue.mjs --env-file=/etc/screenroom/screenroom.env
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { ensurePocketBase, StackError } from "./lib/pocketbase.mjs";
import { dropEmptyVariables, loadEnv, productionDataDir } from "./lib/production-env.mjs";

function parseFlags(argv) {
  const flags = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith("--")) throw new StackError(`Unknown argument "${arg}". See the top of scripts/requeue.mjs.`);
    const eq = arg.indexOf("=");
    const name = eq > 0 ? arg.slice(2, eq) : arg.slice(2);
    if (!["env-file", "answer", "dir"].includes(name)) throw new StackError(`Unknown flag --${name}. See the top of scripts/requeue.mjs.`);
    const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
    if (!value) throw new StackError(`--${name} needs a value.`);
    flags[name] = value;
  }
  return flags;
}

function main() {
  const flags = parseFlags(process.argv.slice(2));
  loadEnv(flags["env-file"]);
  dropEmptyVariables();
  // --dir: a data dir other than the configured one (the tests' own servers)
  const dataDir = flags.dir ?? productionDataDir();
  if (!existsSync(join(dataDir, "data.db"))) throw new StackError(`No database in ${dataDir}: set PB_DATA_DIR (or --env-file) to the server's data dir.`);
  const binary = ensurePocketBase({ log: (line) => console.error(`[requeue] ${line}`) });
  const args = ["requeue-transcripts", `--dir=${dataDir}`, "--dev=false", ...(flags.answer ? [`--answer=${flags.answer}`] : [])];
  const result = spawnSync(binary, args, { stdio: "inherit" });
  if (result.error) throw result.error;
  process.exit(result.status ?? 1);
}

try {
  main();
} catch (err) {
  console.error(err instanceof StackError ? `\n${err.message}\n` : err);
  process.exit(1);
}
