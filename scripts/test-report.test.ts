// scripts/lib/test-report.mjs: the end of `npm test`'s log names each failed test with its message, from Vitest's and
// Playwright's JSON reports (a CI page may keep only the log's end).
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { failedTestLines, goTestCounts, playwrightCounts, vitestCounts } from "./lib/test-report.mjs";

const dir = mkdtempSync(join(tmpdir(), "test-report-"));

describe("test report", () => {
  it("names a failed Vitest test, and a file that failed to load, with their messages", () => {
    const file = join(dir, "unit.json");
    writeFileSync(
      file,
      JSON.stringify({
        numPassedTests: 3,
        numFailedTests: 1,
        numRuntimeErrorTestSuites: 1,
        numPendingTests: 0,
        numTodoTests: 0,
        testResults: [
          {
            name: "/repo/src/a.test.tsx",
            status: "failed",
            assertionResults: [
              { status: "passed", fullName: "a passes", failureMessages: [] },
              { status: "failed", fullName: "a › shows the alert", failureMessages: ["\u001b[31mUnable to find role=\"alert\"\u001b[39m\n\n  at x"] },
            ],
          },
          { name: "/repo/tests/b.test.ts", status: "failed", message: "SyntaxError: bad", assertionResults: [] },
        ],
      }),
    );
    const counts = vitestCounts(file, "/repo")();
    expect(counts).toMatchObject({ passed: 3, failed: 2, skipped: 0 });
    expect(failedTestLines([{ counts }])).toEqual([
      "- src/a.test.tsx › a › shows the alert",
      '    Unable to find role="alert" | at x',
      "- tests/b.test.ts",
      "    SyntaxError: bad",
    ]);
  });

  it("names a failed and a flaky Playwright test with their project and describe titles", () => {
    const file = join(dir, "e2e.json");
    const test = (status: string, message: string) => ({ projectName: "chromium", status, results: [{ errors: [{ message }] }] });
    writeFileSync(
      file,
      JSON.stringify({
        stats: { expected: 5, unexpected: 1, flaky: 1, skipped: 0 },
        suites: [
          {
            title: "review.spec.ts",
            specs: [{ file: "review.spec.ts", title: "top-level", tests: [test("expected", "")] }],
            suites: [
              {
                title: "review",
                specs: [
                  { file: "review.spec.ts", title: "rates an answer", tests: [test("unexpected", "expect(locator).toBeVisible() failed")] },
                  { file: "review.spec.ts", title: "comments", tests: [test("flaky", "Timeout 30000ms exceeded")] },
                ],
              },
            ],
          },
        ],
      }),
    );
    const counts = playwrightCounts(file)();
    expect(counts).toMatchObject({ passed: 5, failed: 2, skipped: 0 });
    expect(failedTestLines([{ counts }, { counts: null }])).toEqual([
      "- [chromium] review.spec.ts › review › rates an answer",
      "    expect(locator).toBeVisible() failed",
      "- [chromium] review.spec.ts › review › comments (flaky)",
      "    Timeout 30000ms exceeded",
    ]);
  });

  it("counts go test -json's events, naming a failed test with its output, a package that did not build, and one that failed after its tests", () => {
    const file = join(dir, "go.json");
    const events = [
      { Action: "run", Package: "p", Test: "TestA" },
      { Action: "pass", Package: "p", Test: "TestA" },
      { Action: "run", Package: "p", Test: "TestB" },
      { Action: "output", Package: "p", Test: "TestB", Output: "    b_test.go:9: want 1, got 2\n" },
      { Action: "fail", Package: "p", Test: "TestB" },
      { Action: "fail", Package: "p" },
      { Action: "output", Package: "q", Output: "q.go:3: undefined: x\n" },
      { Action: "fail", Package: "q" },
      { Action: "run", Package: "r", Test: "TestC" },
      { Action: "output", Package: "r", Test: "TestC", Output: "ok\n" },
      { Action: "pass", Package: "r", Test: "TestC" },
      { Action: "output", Package: "r", Output: "panic: test timed out after 10m0s\n" },
      { Action: "fail", Package: "r" },
    ];
    writeFileSync(file, events.map((e) => JSON.stringify(e)).join("\n") + "\nnot json\n");
    const counts = goTestCounts(file)();
    expect(counts).toMatchObject({ passed: 2, failed: 3, skipped: 0 });
    expect(failedTestLines([{ counts }])).toEqual([
      "- go: p › TestB",
      "    b_test.go:9: want 1, got 2",
      "- go: q",
      "    q.go:3: undefined: x",
      "- go: r",
      "    panic: test timed out after 10m0s",
    ]);
  });

  it("prints nothing when nothing failed, or a report is missing", () => {
    expect(failedTestLines([{ counts: vitestCounts(join(dir, "missing.json"), "/repo")() }])).toEqual([]);
  });
});
