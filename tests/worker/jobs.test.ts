// The worker's pure decisions: which answers it takes, what it does after a failure, and that one answer is
// never queued or run twice at once.
import { describe, expect, it } from "vitest";
import {
  afterFailure,
  isClaimable,
  JobQueue,
  parseRetryAfter,
  reconnectDelayMs,
  refusedRetryMs,
  selectJobs,
  serverTrouble,
  type JobPolicy,
} from "../../worker/src/jobs";
import { loadConfig } from "../../worker/src/config";

const policy: JobPolicy = { leaseMs: 60_000, maxAttempts: 3 };
const now = Date.parse("2026-01-01T12:00:00Z");
const pbDate = (ms: number) => new Date(ms).toISOString().replace("T", " ");

const me = { worker: "me", run: "run1" };

describe("job selection", () => {
  const base = { transcriptAttempts: 0, transcriptClaimedBy: "", transcriptClaimedAt: "" };

  it("takes pending answers, oldest first, and leaves done and failed ones alone", () => {
    const answers = [
      { ...base, id: "b", transcriptStatus: "pending", created: pbDate(now - 1000) },
      { ...base, id: "c", transcriptStatus: "done", created: pbDate(now - 5000) },
      { ...base, id: "a", transcriptStatus: "pending", created: pbDate(now - 2000) },
      { ...base, id: "d", transcriptStatus: "failed", created: pbDate(now - 9000) },
    ];
    expect(selectJobs(answers, now, policy).map((a) => a.id)).toEqual(["a", "b"]);
  });

  it("skips an answer another worker claimed within its lease, and takes it back once the lease ran out", () => {
    const held = { ...base, id: "x", transcriptStatus: "pending", transcriptClaimedBy: "other", transcriptClaimedAt: pbDate(now - 10_000) };
    expect(isClaimable(held, now, policy, me)).toBe(false);
    const abandoned = { ...held, transcriptClaimedAt: pbDate(now - policy.leaseMs - 1) };
    expect(isClaimable(abandoned, now, policy, me)).toBe(true);
  });

  it("takes back its own claim from a previous run at once (that run died mid-job), never one of this run", () => {
    const fromPreviousRun = { ...base, id: "x", transcriptStatus: "pending", transcriptClaimedBy: "me#run0", transcriptClaimedAt: pbDate(now - 1000) };
    expect(isClaimable(fromPreviousRun, now, policy, me)).toBe(true);
    expect(isClaimable({ ...fromPreviousRun, transcriptClaimedBy: "me#run1" }, now, policy, me)).toBe(false);
    expect(isClaimable({ ...fromPreviousRun, transcriptClaimedBy: "meow#run0" }, now, policy, me)).toBe(false);
  });

  it("puts the jobs its previous run was in the middle of before an older backlog (a restart resumes them at once)", () => {
    const answers = [
      { ...base, id: "old", transcriptStatus: "pending", created: pbDate(now - 9000) },
      { ...base, id: "mine", transcriptStatus: "pending", created: pbDate(now - 1000), transcriptClaimedBy: "me#run0", transcriptClaimedAt: pbDate(now - 500) },
      { ...base, id: "older", transcriptStatus: "pending", created: pbDate(now - 9500) },
    ];
    expect(selectJobs(answers, now, policy, me).map((a) => a.id)).toEqual(["mine", "older", "old"]);
  });
});

describe("retries", () => {
  it("retries with a growing delay until the attempts are used up, then fails", () => {
    const first = afterFailure(1, policy, 1000);
    const second = afterFailure(2, policy, 1000);
    expect(first).toEqual({ status: "pending", retryInMs: 1000 });
    expect(second).toEqual({ status: "pending", retryInMs: 2000 });
    expect(afterFailure(3, policy, 1000)).toEqual({ status: "failed" });
    expect(afterFailure(7, policy, 1000)).toEqual({ status: "failed" });
  });
});

describe("server troubles (issue 26): not failed attempts of an answer", () => {
  it("tells a server that cannot be reached from one that refuses for now, and both from a refusal of the request", () => {
    for (const status of [0, 502, 504]) expect(serverTrouble(status)).toBe("unreachable");
    expect(serverTrouble(503)).toBe("unreachable"); // a proxy in front of a server that is down
    expect(serverTrouble(503, true)).toBe("refused"); // the server itself, asking to come back later
    expect(serverTrouble(507)).toBe("refused"); // its storage is full
    expect(serverTrouble(500)).toBe("refused");
    for (const status of [400, 401, 403, 404, 409, 413]) expect(serverTrouble(status)).toBeNull();
  });

  it("checks an unreachable server 0.5 s doubling to 5 s apart, and comes back to a refusing one later", () => {
    expect([0, 1, 2, 3, 4, 9].map(reconnectDelayMs)).toEqual([500, 1000, 2000, 4000, 5000, 5000]);
    expect([0, 1, 2, 3, 4, 9].map((n) => refusedRetryMs(n))).toEqual([5000, 10_000, 20_000, 40_000, 60_000, 60_000]);
    expect(refusedRetryMs(3, 7)).toBe(7000); // its Retry-After wins
    expect(refusedRetryMs(0, 86_400)).toBe(600_000);
  });

  it("reads a Retry-After in seconds or as a date", () => {
    expect(parseRetryAfter("120", now)).toBe(120);
    expect(parseRetryAfter(new Date(now + 30_000).toUTCString(), now)).toBe(30);
    expect(parseRetryAfter(new Date(now - 30_000).toUTCString(), now)).toBe(0);
    expect(parseRetryAfter("soon", now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});

describe("idempotence of the queue", () => {
  it("holds an answer once however often it is offered, and never while it runs", () => {
    const queue = new JobQueue();
    expect(queue.offer("a", now)).toBe(true);
    expect(queue.offer("a", now)).toBe(false); // a realtime event and a scan for the same answer
    expect(queue.size).toBe(1);
    expect(queue.take()).toBe("a");
    expect(queue.isRunning("a")).toBe(true);
    expect(queue.offer("a", now)).toBe(false); // the worker's own update echoes back as an event
    expect(queue.take()).toBeUndefined();
    queue.done("a");
    expect(queue.offer("a", now)).toBe(true);
  });

  it("puts an interrupted job at the front, also when a scan had queued it behind others", () => {
    const queue = new JobQueue();
    queue.offer("a", now);
    queue.offer("b", now);
    expect(queue.offer("c", now, { first: true })).toBe(true);
    expect(queue.offer("b", now, { first: true })).toBe(false); // already queued: moved, not added
    expect([queue.take(), queue.take(), queue.take(), queue.take()]).toEqual(["b", "c", "a", undefined]);
  });

  it("waits for a failed answer's retry time", () => {
    const queue = new JobQueue();
    queue.offer("a", now);
    queue.take();
    queue.done("a", now + 5000);
    expect(queue.offer("a", now + 4999)).toBe(false);
    expect(queue.offer("a", now + 5000)).toBe(true);
  });
});

describe("configuration", () => {
  it("reads flags first, then the environment, and picks pocketsphinx unless an endpoint is configured", () => {
    const config = loadConfig(["--url", "http://pb.test:1/", "--email=a@b.c", "--password", "pw"], { PB_SUPERUSER_EMAIL: "env@b.c" });
    expect(config).toMatchObject({ pbUrl: "http://pb.test:1", email: "a@b.c", password: "pw", provider: { kind: "pocketsphinx" } });
    const http = loadConfig([], { PB_SUPERUSER_EMAIL: "e", PB_SUPERUSER_PASSWORD: "p", TRANSCRIBE_URL: "http://t/v1/audio/transcriptions" });
    expect(http.provider).toEqual({ kind: "whisper", url: "http://t/v1/audio/transcriptions", apiKey: "", model: "whisper-1" });
    expect(() => loadConfig([], {})).toThrow(/superuser credentials/);
  });
});
