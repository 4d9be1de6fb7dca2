// Installing what the project needs: npm packages from the lockfile, and Debian packages for the
// browser tests and media tools. Only node built-ins here, so it runs before node_modules exists.
import { spawnSync } from "node:child_process";
import { existsSync, lstatSync, realpathSync, statSync } from "node:fs";
import { join } from "node:path";
import { root, StackError } from "./pocketbase.mjs";

/**
 * `npm ci` from the lockfile, unless node_modules was installed from this very lockfile already (npm writes
 * node_modules/.package-lock.json on every install: newer than the lockfile means up to date). The lockfile holds
 * every platform's optional binaries (rollup, esbuild, the import resolver), so it installs as is on any OS and CPU;
 * one that `npm ci` refuses is a bug to fix in the lockfile, never to paper over with `npm install`.
 */
export function ensureNodeModules({ log = console.log } = {}) {
  const marker = join(root, "node_modules", ".package-lock.json");
  const lock = join(root, "package-lock.json");
  if (existsSync(marker) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs) return;
  // A git worktree may share another checkout's node_modules through a link (its fresh checkout makes the lockfile
  // look newer): `npm ci` here would empty the link's target, the other checkout's packages, and replace the link.
  const modules = join(root, "node_modules");
  if (lstatSync(modules, { throwIfNoEntry: false })?.isSymbolicLink()) {
    log(`node_modules links to ${realpathSync(modules)}: not running npm ci through the link (run it there if packages are missing).`);
    return;
  }
  log("Installing npm dependencies (npm ci)...");
  const result = spawnSync("npm", ["ci", "--no-audit", "--no-fund"], { cwd: root, stdio: "inherit" });
  if (result.status !== 0) {
    throw new StackError(
      "npm ci failed: see the npm output above. If it says package.json and package-lock.json are out of sync, " +
        "update the lockfile with `npm install` and commit it.",
    );
  }
}

function has(command) {
  return spawnSync("bash", ["-c", `command -v ${command}`], { stdio: "ignore" }).status === 0;
}

function hasPackage(name) {
  return spawnSync("dpkg-query", ["-W", "-f=${Status}", name], { encoding: "utf8" }).stdout?.includes("install ok installed");
}

/**
 * Debian packages by the command or package that proves them: chromium and firefox-esr for the browser tests,
 * ffmpeg for media fixtures, the worker and the server's answer length check (ffprobe, server/internal/takes/media_probe.go),
 * pocketsphinx for offline transcripts, strace for the durability test (a confirmed answer is fsynced before its
 * response); nginx, systemd-analyze (Debian's systemd), openssl and unzip for the production smoke test
 * (tests/production.test.ts: the proxy example in front, the unit files verified, a backup unzipped and served);
 * gcc and the C library's headers for Litestream, built with cgo (scripts/lib/litestream.mjs: the restore drill, and
 * production with REPLICA_URL).
 */
export const SYSTEM_PACKAGES = [
  { pkg: "chromium", check: () => has("chromium") },
  { pkg: "firefox-esr", check: () => has("firefox-esr") },
  { pkg: "ffmpeg", check: () => has("ffmpeg") && has("ffprobe") },
  { pkg: "espeak-ng", check: () => has("espeak-ng") },
  { pkg: "pocketsphinx", check: () => hasPackage("pocketsphinx") },
  { pkg: "pocketsphinx-en-us", check: () => hasPackage("pocketsphinx-en-us") },
  { pkg: "pocketsphinx-testdata", check: () => hasPackage("pocketsphinx-testdata") },
  { pkg: "strace", check: () => has("strace") },
  { pkg: "nginx", check: () => has("nginx") || spawnSync("test", ["-x", "/usr/sbin/nginx"]).status === 0 },
  { pkg: "systemd", check: () => has("systemd-analyze") },
  { pkg: "openssl", check: () => has("openssl") },
  { pkg: "unzip", check: () => has("unzip") },
  { pkg: "gcc", check: () => has("gcc") },
  { pkg: "libc6-dev", check: () => hasPackage("libc6-dev") },
];

/** The installed Debian version of a package, or null (dpkg-query: quick, no network). */
export function packageVersion(name) {
  const r = spawnSync("dpkg-query", ["-W", "-f=${Version}", name], { encoding: "utf8" });
  return r.status === 0 && r.stdout.trim() ? r.stdout.trim() : null;
}

export function ensureSystemPackages({ log = console.log, packages = SYSTEM_PACKAGES } = {}) {
  installMissing(packages, log);
  // Debian 12's security suite carries the newest Firefox ESR: say which one the browser tests run in
  if (packages.some((p) => p.pkg === "firefox-esr")) log(`firefox-esr ${packageVersion("firefox-esr") ?? "(not from a Debian package)"}`);
}

function installMissing(packages, log) {
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
