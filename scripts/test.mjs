// `npm test`: every check and test of the project, on a fresh clone. Installs what is missing (npm
// packages; Debian's chromium, firefox-esr, ffmpeg, pocketsphinx when run as root), builds PocketBase and the test S3
// server (versitygw) and Litestream once, then
// runs lint, type-check, the Go main's tests, unit, integration (real PocketBase + MailDev), the production build and the
// end-to-end suite (real Chromium, and Firefox ESR for the candidate's journeys, against the built app on a real
// PocketBase), then the candidate journeys in WebKitGTK (Safari's engine) through WebKitWebDriver (e2e-webkit/).
// Ends with one line
// "Total: N passed, N failed".
import { spawnSync } from "node:child_process";
import { closeSync, mkdirSync, openSync, rmSync } from "node:fs";
import { failedTestLines, goTestCounts, playwrightCounts, vitestCounts } from "./lib/test-report.mjs";
import { join } from "node:path";
import { ensureNodeModules, ensureSystemPackages } from "./lib/deps.mjs";
import { ensureWebKit } from "./lib/webkit.mjs";
import { ensurePocketBase, goBinary, root, StackError } from "./lib/pocketbase.mjs";
import { ensureGoTool } from "./lib/go-tools.mjs";
import { ensureLitestream } from "./lib/litestream.mjs";
import { ensureS3Server } from "./lib/s3server.mjs";
import { ensurePrometheus, ensurePromJson } from "./lib/prometheus.mjs";

const results = [];
const bin = (name) => join(root, "node_modules", ".bin", name);
const reports = join(root, "test-results");

function step(name, command, args, { count, cwd = root, stdoutFile, env = {} } = {}) {
  console.log(`\n=== ${name} ===`);
  const started = Date.now();
  const out = stdoutFile ? openSync(stdoutFile, "w") : "inherit";
  const r = spawnSync(command, args, { cwd, stdio: ["inherit", out, "inherit"], env: { ...process.env, FORCE_COLOR: "0", ...env } });
  if (stdoutFile) closeSync(out);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const counts = count ? count() : null;
  results.push({ name, ok: r.status === 0, seconds, counts });
  return r.status === 0;
}

let staticcheck;
try {
  ensureNodeModules();
  ensureSystemPackages();
  ensureWebKit();
  ensurePocketBase();
  ensureS3Server(); // the S3 server of tests/s3-storage.test.ts, built from its Go module once (cached in .cache)
  ensureLitestream(); // the replication of tests/replication.test.ts (the restore drill), likewise
  // tests/metrics.test.ts: Debian's Prometheus, and prom2json (Prometheus's text parser) built from its Go module once
  ensurePrometheus();
  ensurePromJson();
  staticcheck = ensureGoTool({ name: "staticcheck", module: "honnef.co/go/tools", command: "cmd/staticcheck", version: "v0.8.2", what: "the Go linter" });
} catch (err) {
  console.error(err instanceof StackError ? err.message : err);
  process.exit(1);
}
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });

step("lint", bin("eslint"), [".", "--max-warnings=0"]);
step("type-check", bin("tsc"), ["-b"]);
// the Go main's static checks: gofmt (every file formatted), go vet, then staticcheck (pinned, built from its module)
const goEnv = { CGO_ENABLED: "0", GOFLAGS: "-mod=readonly" };
const gofmtCheck = `unformatted=$("$("$GO" env GOROOT)/bin/gofmt" -l .) && if [ -n "$unformatted" ]; then echo "Not formatted by gofmt (run gofmt -w on them): $unformatted"; exit 1; fi`;
step("Go static checks (gofmt, go vet, staticcheck)", "bash", ["-c", `${gofmtCheck} && "$GO" vet ./... && "$STATICCHECK" ./...`], {
  cwd: join(root, "server"),
  env: { ...goEnv, GO: goBinary() ?? "go", STATICCHECK: staticcheck },
});
// the Go main's own tests (server/internal/*/*_test.go: webhook signing, the export's README, the enrich memo), with the
// module cache and build cache PocketBase's build filled
const goReport = join(reports, "go-test.json");
step("Go tests (server/)", goBinary() ?? "go", ["test", "-json", "./..."], {
  cwd: join(root, "server"),
  stdoutFile: goReport,
  env: goEnv,
  count: goTestCounts(goReport),
});
const unitReport = join(reports, "unit.json");
step("unit tests", bin("vitest"), ["run", "--project", "unit", "--reporter=default", "--reporter=json", `--outputFile=${unitReport}`], { count: vitestCounts(unitReport, root) });
const itReport = join(reports, "integration.json");
step("integration tests (real PocketBase + MailDev)", bin("vitest"), ["run", "--project", "integration", "--reporter=default", "--reporter=json", `--outputFile=${itReport}`], { count: vitestCounts(itReport, root) });
const built = step("production build", bin("vite"), ["build"]);
if (built) {
  step("end-to-end tests (Chromium, Firefox ESR)", bin("playwright"), ["test"], { count: playwrightCounts(join(reports, "e2e.json")) });
  // Its own ports (e2e-webkit/vitest.config.ts: 8192/1192/1127, driver 4192), a stack of its own.
  const webkitReport = join(reports, "e2e-webkit.json");
  step("end-to-end tests (WebKitGTK)", bin("vitest"), ["run", "--config", "e2e-webkit/vitest.config.ts", "--reporter=default", "--reporter=json", `--outputFile=${webkitReport}`], { count: vitestCounts(webkitReport, root) });
} else {
  results.push({ name: "end-to-end tests (Chromium, Firefox ESR)", ok: false, seconds: "0", counts: null });
  results.push({ name: "end-to-end tests (WebKitGTK)", ok: false, seconds: "0", counts: null });
}

let passed = 0;
let failed = 0;
console.log("\n=== summary ===");
for (const r of results) {
  const c = r.counts;
  if (c) {
    passed += c.passed;
    failed += c.failed;
  }
  if (!r.ok && (!c || c.failed === 0)) failed += 1; // a step that failed without failing tests still fails
  const detail = c ? `${c.passed} passed, ${c.failed} failed${c.skipped ? `, ${c.skipped} skipped` : ""}` : "";
  console.log(`${r.ok ? "ok  " : "FAIL"}  ${r.name.padEnd(48)} ${String(r.seconds).padStart(6)} s  ${detail}`);
}
// The failed tests by name, with the start of their message, so that the end of the log (all a CI page may keep)
// says what failed.
const failureLines = failedTestLines(results);
if (failureLines.length > 0) console.log(["\n=== failed ===", ...failureLines].join("\n"));
console.log(`Total: ${passed} passed, ${failed} failed`);
process.exit(results.every((r) => r.ok) ? 0 : 1);
