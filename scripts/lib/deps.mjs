// Installing what the project needs: npm packages from the lockfile, and Debian packages for the
// browser tests and media tools. Only node built-ins here, so it runs before node_modules exists.
import { spawnSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { root, StackError } from "./pocketbase.mjs";

export function ensureNodeModules({ log = console.log } = {}) {
  const marker = join(root, "node_modules", ".package-lock.json");
  const lock = join(root, "package-lock.json");
  if (existsSync(marker) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs) return;
  log("Installing npm dependencies (npm ci)...");
  let result = spawnSync("npm", ["ci", "--no-audit", "--no-fund"], { cwd: root, stdio: "inherit" });
  if (result.status !== 0) {
    // npm 11 records only this platform's optional binaries (rollup, esbuild, ...) in the lockfile and
    // then has `npm ci` refuse that same lockfile as out of sync; `npm install` follows it all the same.
    log("npm ci refused the lockfile; installing from it with npm install instead...");
    result = spawnSync("npm", ["install", "--no-audit", "--no-fund"], { cwd: root, stdio: "inherit" });
  }
  if (result.status !== 0) throw new StackError("Installing the npm dependencies failed: see the npm output above.");
}

function has(command) {
  return spawnSync("bash", ["-c", `command -v ${command}`], { stdio: "ignore" }).status === 0;
}

function hasPackage(name) {
  return spawnSync("dpkg-query", ["-W", "-f=${Status}", name], { encoding: "utf8" }).stdout?.includes("install ok installed");
}

/**
 * Debian packages by the command or package that proves them: chromium for the browser tests,
 * ffmpeg for media fixtures and the worker, pocketsphinx for offline transcripts.
 */
export const SYSTEM_PACKAGES = [
  { pkg: "chromium", check: () => has("chromium") },
  { pkg: "ffmpeg", check: () => has("ffmpeg") && has("ffprobe") },
  { pkg: "espeak-ng", check: () => has("espeak-ng") },
  { pkg: "pocketsphinx", check: () => hasPackage("pocketsphinx") },
  { pkg: "pocketsphinx-en-us", check: () => hasPackage("pocketsphinx-en-us") },
  { pkg: "pocketsphinx-testdata", check: () => hasPackage("pocketsphinx-testdata") },
];

export function ensureSystemPackages({ log = console.log, packages = SYSTEM_PACKAGES } = {}) {
  const missing = packages.filter((p) => !p.check()).map((p) => p.pkg);
  if (missing.length === 0) return;
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  if (!isRoot || !has("apt-get")) {
    throw new StackError(
      `Missing system packages: ${missing.join(", ")}.\nInstall them first, e.g.: sudo apt-get install -y ${missing.join(" ")}`,
    );
  }
  log(`Installing Debian packages: ${missing.join(", ")}...`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  let result = spawnSync("apt-get", ["update", "-qq"], { stdio: "inherit", env });
  if (result.status !== 0) throw new StackError("apt-get update failed: see its output above.");
  result = spawnSync("apt-get", ["install", "-y", "-qq", "--no-install-recommends", ...missing], { stdio: "inherit", env });
  if (result.status !== 0) throw new StackError(`apt-get install ${missing.join(" ")} failed: see its output above.`);
}
