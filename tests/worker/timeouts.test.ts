// The worker's request timeouts (worker/src/timeouts.ts): how long each request may take, and how a timeout is told
// from other failures, through the PocketBase SDK's wrapping. The worker against a server that never answers is
// tests/worker/hung-server.test.ts.
import { ClientResponseError } from "pocketbase";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../worker/src/config";
import { DEFAULT_TIMEOUTS, fileBytes, isTimeout, RequestTimeoutError, timeoutMessage, timeoutSignal, transferTimeoutMs } from "../../worker/src/timeouts";

describe("request timeouts", () => {
  it("gives a request carrying a file its share on top of the request's own", () => {
    expect(transferTimeoutMs(DEFAULT_TIMEOUTS, 0)).toBe(30_000);
    expect(transferTimeoutMs(DEFAULT_TIMEOUTS, 150 * 1024 * 1024)).toBe(180_000);
    expect(transferTimeoutMs({ requestMs: 1_000, transferMsPerMB: 500 }, 3 * 1024 * 1024)).toBe(2_500);
  });

  it("counts the bytes of a multipart body's files, and none of any other body", () => {
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(1234)]), "answer.webm");
    form.append("durationSeconds", "3.5");
    expect(fileBytes(form)).toBe(1234);
    expect(fileBytes({ transcript: "x" })).toBe(0);
    expect(fileBytes(undefined)).toBe(0);
  });

  it("aborts with a timeout of its own after the time, and with the caller's reason when the caller aborts first", async () => {
    const signal = timeoutSignal("GET /api/health", 20);
    await new Promise((resolve) => signal.addEventListener("abort", resolve));
    expect(signal.reason).toBeInstanceOf(RequestTimeoutError);
    expect(String(signal.reason)).toBe("TimeoutError: GET /api/health: no answer within 0 s");
    const caller = new AbortController();
    const outer = timeoutSignal("GET /api/health", 60_000, caller.signal);
    caller.abort(new Error("stopped"));
    expect(outer.aborted).toBe(true);
    expect(isTimeout(outer.reason)).toBe(false);
  });

  it("knows a timeout inside the SDK's error and the platform's own, and nothing else", () => {
    const ours = new RequestTimeoutError("POST /api/x", 1_500);
    expect(ours.message).toBe("POST /api/x: no answer within 1.5 s");
    const wrapped = new ClientResponseError(ours);
    expect(isTimeout(wrapped)).toBe(true);
    expect(timeoutMessage(wrapped)).toBe("POST /api/x: no answer within 1.5 s");
    expect(isTimeout(new DOMException("The operation was aborted due to timeout", "TimeoutError"))).toBe(true);
    expect(isTimeout(new ClientResponseError({ status: 0 }))).toBe(false);
    expect(isTimeout(new TypeError("fetch failed", { cause: Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }) }))).toBe(false);
    expect(timeoutMessage(new Error("boom"))).toBeUndefined();
  });

  it("reads WORKER_REQUEST_TIMEOUT_SECONDS and WORKER_TRANSFER_SECONDS_PER_MB, with their defaults", () => {
    const base = { PB_SUPERUSER_EMAIL: "e", PB_SUPERUSER_PASSWORD: "p" };
    expect(loadConfig([], base).timeouts).toEqual({ requestMs: 30_000, transferMsPerMB: 1_000 });
    expect(loadConfig([], { ...base, WORKER_REQUEST_TIMEOUT_SECONDS: "2.5", WORKER_TRANSFER_SECONDS_PER_MB: "4" }).timeouts).toEqual({ requestMs: 2_500, transferMsPerMB: 4_000 });
    expect(loadConfig([], { ...base, WORKER_REQUEST_TIMEOUT_SECONDS: "never" }).timeouts).toEqual({ requestMs: 30_000, transferMsPerMB: 1_000 });
  });
});
