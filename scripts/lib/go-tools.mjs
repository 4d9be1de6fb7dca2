// Go programs the project runs but does not write (the test S3 server, staticcheck), each built from its Go module at
// a pinned version into .cache/<name>/ once, never a downloaded binary.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { StackError, goBinary, root } from "./pocketbase.mjs";

/**
 * The path of `command` (a package path inside `module`, e.g. "cmd/versitygw") built at `version`, named by that
 * version: `go install` of a module version uses its own go.mod and go.sum, checked against the Go checksum database.
 * Built the first time only; later calls reuse the binary.
 */
export function ensureGoTool({ name, module, command, version, what, cgo = false, ldflags = "", minGo = "1.25", log = console.log }) {
  const binary = join(root, ".cache", name, `${name}-${version}`);
  if (existsSync(binary)) return binary;
  const go = goBinary();
  if (!go) throw new StackError(`Go is not installed, and ${what} is built from its Go module. Install Go ${minGo} or newer.`);
  if (cgo && !spawnSync("bash", ["-lc", "command -v gcc"], { encoding: "utf8" }).stdout.trim()) {
    throw new StackError(`${name} is built with cgo and needs a C compiler: apt-get install gcc libc6-dev.`);
  }
  log(`Building ${name} ${version} (${what}) from its Go module (first run only)...`);
  // GOBIN per process, then a rename: two test runs on a fresh clone never run a half-written binary
  const gobin = join(root, ".cache", name, `.building-${process.pid}`);
  mkdirSync(gobin, { recursive: true });
  const result = spawnSync(go, ["install", "-trimpath", "-ldflags", `-s -w ${ldflags}`.trim(), `${module}/${command}@${version}`], {
    stdio: "inherit",
    // GOTOOLCHAIN=local: a module that asks for a newer toolchain fails with Go's own message rather than downloading one
    env: { ...process.env, CGO_ENABLED: cgo ? "1" : "0", GOBIN: gobin, GOTOOLCHAIN: "local" },
  });
  if (result.status !== 0) {
    rmSync(gobin, { recursive: true, force: true });
    throw new StackError(`Building ${name} failed (go install exited with ${result.status}). See the Go output above.`);
  }
  renameSync(join(gobin, command.split("/").pop()), binary);
  rmSync(gobin, { recursive: true, force: true });
  log(`${name} built: ${binary}`);
  return binary;
}
