// Reading the JSON reports of Vitest and Playwright for scripts/test.mjs's summary: counts, and the failed tests by
// name with the start of their message.
import { existsSync, readFileSync } from "node:fs";
import { relative } from "node:path";

export function vitestCounts(file, root) {
  return () => {
    if (!existsSync(file)) return null;
    const json = JSON.parse(readFileSync(file, "utf8"));
    const failures = [];
    for (const file of json.testResults ?? []) {
      const path = relative(root, file.name);
      if (file.status === "failed" && !(file.assertionResults ?? []).some((a) => a.status === "failed")) failures.push({ title: path, message: file.message ?? "" });
      for (const a of file.assertionResults ?? []) {
        if (a.status === "failed") failures.push({ title: `${path} › ${a.fullName}`, message: (a.failureMessages ?? []).join("\n") });
      }
    }
    return { passed: json.numPassedTests, failed: json.numFailedTests + (json.numRuntimeErrorTestSuites ?? 0), skipped: json.numPendingTests + json.numTodoTests, failures };
  };
}

export function playwrightCounts(file) {
  return () => {
    if (!existsSync(file)) return null;
    const { stats, suites } = JSON.parse(readFileSync(file, "utf8"));
    const failures = [];
    const walk = (suite, titles) => {
      for (const spec of suite.specs ?? []) {
        for (const t of spec.tests ?? []) {
          if (t.status !== "unexpected" && t.status !== "flaky") continue;
          const errors = (t.results ?? []).flatMap((r) => (r.errors ?? []).map((e) => e.message ?? ""));
          failures.push({ title: `[${t.projectName}] ${spec.file} › ${[...titles, spec.title].join(" › ")}${t.status === "flaky" ? " (flaky)" : ""}`, message: errors.join("\n") });
        }
      }
      for (const child of suite.suites ?? []) walk(child, [...titles, child.title]);
    };
    for (const suite of suites ?? []) walk(suite, []);
    return { passed: stats.expected, failed: stats.unexpected + stats.flaky, skipped: stats.skipped, failures };
  };
}

/** `go test -json`'s events: each test's pass or fail (a package that failed to build counts as one failure). */
export function goTestCounts(file) {
  return () => {
    if (!existsSync(file)) return null;
    let passed = 0;
    let skipped = 0;
    const failures = [];
    const output = {};
    // the packages with a failed test: their own "fail" says nothing more; any other package's "fail" (it did not
    // build, or failed after its tests: TestMain, os.Exit, a timeout) is a failure of its own
    const failedTestIn = new Set();
    for (const line of readFileSync(file, "utf8").split("\n")) {
      let event;
      try {
        event = JSON.parse(line);
      } catch {
        continue;
      }
      const name = event.Test ? `${event.Package} › ${event.Test}` : event.Package;
      if (event.Action === "output") output[name] = (output[name] ?? "") + event.Output;
      if (event.Action === "pass" && event.Test) passed += 1;
      if (event.Action === "skip" && event.Test) skipped += 1;
      if (event.Action === "fail" && event.Test) {
        failedTestIn.add(event.Package);
        failures.push({ title: `go: ${name}`, message: output[name] ?? "" });
      }
      if (event.Action === "fail" && !event.Test && !failedTestIn.has(event.Package)) {
        failures.push({ title: `go: ${name}`, message: output[name] ?? "" });
      }
    }
    return { passed, failed: failures.length, skipped, failures };
  };
}

/** One line per failed test of the steps' counts, then its message's first lines. */
export function failedTestLines(results) {
  const lines = [];
  for (const f of results.flatMap((r) => r.counts?.failures ?? [])) {
    const message = f.message
      // eslint-disable-next-line no-control-regex -- the terminal colour codes in messages
      .replace(/\u001b\[[0-9;]*m/g, "")
      .split("\n")
      .map((l) => l.trim())
      .filter(Boolean)
      .slice(0, 4)
      .join(" | ");
    lines.push(`- ${f.title}`, `    ${message.slice(0, 400)}`);
  }
  return lines;
}
