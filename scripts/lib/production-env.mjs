// The production environment, read the same way by `npm run serve` (scripts/serve.mjs) and `npm run restore`
// (scripts/restore.mjs): `.env` in the checkout or `--env-file PATH` (variables already set win over the file), empty
// variables meaning "the default", and the data dir they name.
import { existsSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { root, StackError } from "./pocketbase.mjs";

/** The env file's variables into process.env; those already set (systemd's EnvironmentFile, the shell) win. */
export function loadEnv(envFile) {
  const file = envFile ? resolve(String(envFile)) : join(root, ".env");
  if (!existsSync(file)) {
    if (envFile) throw new StackError(`The env file ${file} does not exist.`);
    return null;
  }
  process.loadEnvFile(file);
  return file;
}

/** An empty variable means "the default", as .env.example says: the hooks and the worker read empty and unset alike. */
export function dropEmptyVariables() {
  for (const [name, value] of Object.entries(process.env)) if (value !== undefined && value.trim() === "") delete process.env[name];
}

/** PocketBase's data dir: PB_DATA_DIR (relative to the checkout), or .data/production. */
export function productionDataDir(env = process.env) {
  const value = (env.PB_DATA_DIR ?? "").trim();
  return value ? (isAbsolute(value) ? value : resolve(root, value)) : join(root, ".data", "production");
}
