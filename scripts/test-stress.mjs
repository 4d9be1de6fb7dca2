// `npm run test:stress [-- --runs=N]`: the README's test command (`npm test`, exactly as CI runs it, no retries)
// with two CPU-bound processes beside it for the whole run, not niced, so that a test that depends on timing fails
// here before it fails in CI. Runs N times in a row (default 1), stops at the first failed run, and ends with one
// line per run and the exit code of the last run.
import { spawn } from "node:child_process";
import { root } from "./lib/pocketbase.mjs";

const runsArg = process.argv.find((a) => a.startsWith("--runs="));
const runs = runsArg ? Number(runsArg.slice("--runs=".length)) : 1;
if (!Number.isInteger(runs) || runs < 1) {
  console.error("--runs must be a whole number of at least 1");
  process.exit(2);
}

// two busy processes on this 2-core machine: `yes` writing to /dev/null, as in the measurement
const busy = [0, 1].map(() => spawn("yes", [], { stdio: ["ignore", "ignore", "ignore"] }));
const stopBusy = () => busy.forEach((child) => child.kill("SIGKILL"));
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    stopBusy();
    process.exit(130);
  });
}
process.on("exit", stopBusy);

function npmTest() {
  return new Promise((resolve) => {
    const child = spawn("npm", ["test"], { cwd: root, stdio: ["ignore", "pipe", "inherit"] });
    let total = "";
    child.stdout.on("data", (chunk) => {
      process.stdout.write(chunk);
      const match = /^Total: .*$/m.exec(String(chunk));
      if (match) total = match[0];
    });
    child.on("exit", (code) => resolve({ code: code ?? 1, total }));
  });
}

const results = [];
for (let run = 1; run <= runs; run += 1) {
  console.log(`\n##### stress run ${run} of ${runs}: npm test beside ${busy.length} busy processes #####`);
  const started = Date.now();
  const { code, total } = await npmTest();
  results.push({ run, code, total: total || "(no Total line)", seconds: Math.round((Date.now() - started) / 1000) });
  if (code !== 0) break;
}
stopBusy();
console.log("\n##### stress summary #####");
for (const r of results) console.log(`run ${r.run}: ${r.code === 0 ? "passed" : "FAILED"} in ${r.seconds} s  ${r.total}`);
process.exit(results.at(-1).code);
