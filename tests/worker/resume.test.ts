// The media worker resumes at once after it lost its server (issue 26): the real worker (its own process, through
// worker/run.mjs) against a PocketBase of this suite's own that is killed with SIGKILL and started again on the same
// data and port. The claim lease and the rescan are an hour long, so only a real resume passes: the job the crash
// cut is taken up again by the same worker as soon as the server answers, and an answer stored while the worker was
// cut off is found when it reconnects. A server that refuses the seekable file (a full disk: 507) keeps the stored
// recording, and the job is done again later; neither counts as an attempt of the answer. Figures (how soon) come
// from scripts/bench/worker-resume.mjs, not from here.
import type { ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer, request, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import { freePort, stopChild } from "../../scripts/lib/pocketbase.mjs";
import { startWorker } from "../../worker/run.mjs";
import { parsePbDate } from "../../worker/src/jobs";
import { MediaWorker } from "../../worker/src/worker";
import { answerVideo, randomId, useOwnServer, world, type OwnServer } from "../helpers";
import { admin, countOf } from "../support";
import { FIXTURES, packetsOf } from "./media-fixtures";
import { workerConfig } from "./support";

// a MediaRecorder-shaped webm with sound (so it is transcribed), written as a live stream: no duration of its own
const FIXTURE = join(FIXTURES, "mediarecorder-unsized.webm");
const TRANSCRIPT = "I would like to work with you.";
// far above the slowest run under load (a job here takes about a second), below the suite's 120 s test timeout
const RESUME_BOUND_MS = 90_000;

let server: OwnServer | undefined;
beforeAll(async () => {
  server = await useOwnServer();
});
afterAll(async () => {
  await server?.stop();
});

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * A Whisper-compatible endpoint of the test's own (the worker's `TRANSCRIBE_URL`), so the test knows when the worker
 * is in the middle of a job: with `hold`, the first request waits until `release()`; every other one is answered at
 * once.
 */
async function transcriptionEndpoint({ hold = false } = {}) {
  let requests = 0;
  let held: ServerResponse | undefined;
  let holding = hold;
  let arrived: () => void = () => {};
  const firstArrived = new Promise<void>((resolve) => (arrived = resolve));
  const answer = (res: ServerResponse) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ text: TRANSCRIPT }));
  };
  const endpoint = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      requests += 1;
      arrived();
      if (holding && !held) held = res;
      else answer(res);
    });
  });
  await new Promise<void>((resolve) => endpoint.listen(0, "127.0.0.1", resolve));
  cleanups.push(() => new Promise<void>((resolve) => endpoint.close(() => resolve())));
  return {
    url: `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/v1/audio/transcriptions`,
    firstArrived,
    requests: () => requests,
    /** answers the held request (the worker's job goes on) and every later one at once */
    release() {
      holding = false;
      if (held) answer(held);
    },
  };
}

/**
 * The media worker as it runs beside the app (worker/run.mjs, a process of its own), with an hour-long claim lease
 * and rescan: its output lines, and a wait for a line.
 */
async function mediaWorker(transcribeUrl: string) {
  const lines: string[] = [];
  const listeners = new Set<() => void>();
  const child: ChildProcess = await startWorker({
    url: server!.url,
    superuser: inject("superuser"),
    env: {
      WORKER_ID: `resume-worker-${randomId()}`,
      WORKER_LEASE_SECONDS: "3600",
      WORKER_RESCAN_SECONDS: "3600",
      WORKER_MAX_ATTEMPTS: "3",
      TRANSCRIBE_PROVIDER: "whisper",
      TRANSCRIBE_URL: transcribeUrl,
      TRANSCRIBE_API_KEY: "",
    },
    onOutput: (text) => {
      for (const line of text.split("\n").filter(Boolean)) {
        lines.push(line);
        console.log(line);
      }
      for (const listener of listeners) listener();
    },
  });
  cleanups.push(() => stopChild(child));
  /** The first output line from `from` on that matches; rejects after `timeoutMs` or when the worker exits. */
  const waitForLine = (match: (line: string) => boolean, what: string, { from = 0, timeoutMs = 60_000 } = {}) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        const found = lines.slice(from).find(match);
        if (found !== undefined) finish(() => resolve(found));
        else if (child.exitCode !== null) finish(() => reject(new Error(`the worker exited (${child.exitCode}) before ${what}`)));
      };
      const timer = setTimeout(() => finish(() => reject(new Error(`${what}: not within ${timeoutMs} ms`))), timeoutMs);
      const finish = (settle: () => void) => {
        clearTimeout(timer);
        listeners.delete(check);
        child.off("exit", check);
        settle();
      };
      listeners.add(check);
      child.on("exit", check);
      check();
    });
  await waitForLine((l) => l.includes("realtime: subscribed"), "the worker's realtime subscription");
  return { lines, waitForLine };
}

async function stored(id: string) {
  const su = await admin();
  return su.collection("video_answers").getOne(id);
}

/** Polls the stored video answer until `done`, at most `RESUME_BOUND_MS`. */
async function storedWhen(id: string, done: (record: Awaited<ReturnType<typeof stored>>) => boolean, what: string) {
  const deadline = Date.now() + RESUME_BOUND_MS;
  for (;;) {
    const record = await stored(id);
    if (done(record)) return record;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${RESUME_BOUND_MS} ms; last stored ${JSON.stringify(record)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The fixture's length in seconds: the end of its last packet (a live-stream webm states none). */
const fixtureSeconds = () => Math.max(...packetsOf(FIXTURE).map((p) => p.endTime));

const fixtureFile = () => new File([readFileSync(FIXTURE)], "answer.webm", { type: "video/webm" });

/** What must be true of the answer at the end: one answer, its seekable file and its transcript, one attempt. */
async function expectTranscribedOnce(w: Awaited<ReturnType<typeof world>>, id: string) {
  const record = await storedWhen(id, (r) => r.transcriptStatus === "done", "the transcript");
  expect(record).toMatchObject({ transcriptStatus: "done", transcript: TRANSCRIPT, transcriptClaimedBy: "", transcriptError: "" });
  // a lost server is not a failed attempt of the answer
  expect(record.transcriptAttempts).toBe(1);
  expect(record.durationSeconds).toBeGreaterThan(0);
  expect(Math.abs((record.durationSeconds as number) - fixtureSeconds())).toBeLessThan(0.5);
  expect(await countOf("answers", "candidate = {:c}", { c: w.candidate.id })).toBe(1);
  expect(await countOf("video_answers", "answer.candidate = {:c}", { c: w.candidate.id })).toBe(1);
}

describe("media worker after its server was lost", () => {
  it("takes up the job a PocketBase crash cut as soon as the server is back, though its own claim has an hour to run", async () => {
    const endpoint = await transcriptionEndpoint({ hold: true });
    const worker = await mediaWorker(endpoint.url);
    const w = await world("resume-crash");
    const { kind } = await answerVideo(w.candidate.id, w.video.question.id, undefined, fixtureFile());

    // the worker is in the middle of the job: it claimed the answer, stored the seekable file and waits for its transcript
    await endpoint.firstArrived;
    const claimed = await stored(kind.id);
    expect(claimed).toMatchObject({ transcriptStatus: "pending", transcriptAttempts: 1 });
    expect(claimed.transcriptClaimedBy).toMatch(/^resume-worker-/);

    await server!.kill();
    const cut = worker.lines.length;
    endpoint.release(); // the transcript comes back while the server is down: the worker's write meets a dead server
    await worker.waitForLine((l) => l.includes(kind.id), "the worker meeting the dead server", { from: cut });

    await server!.start(); // same data, same port
    await expectTranscribedOnce(w, kind.id);
    expect(endpoint.requests()).toBeGreaterThanOrEqual(2); // the job was done again, not only its last write
  });

  it("finds an answer stored while it was cut off from the server as soon as it reconnects, not at its next rescan", async () => {
    const endpoint = await transcriptionEndpoint();
    const worker = await mediaWorker(endpoint.url);
    const w = await world("resume-offline");

    await server!.kill();
    await worker.waitForLine((l) => l.includes("realtime: connection lost"), "the worker noticing the lost server");
    // the server runs again on a port the worker does not know, the answer is stored, and the server stops again:
    // the worker can only learn of it from the server it comes back to (no realtime event is left to tell it)
    await server!.start(await freePort());
    const { kind } = await answerVideo(w.candidate.id, w.video.question.id, undefined, fixtureFile());
    await server!.kill();
    expect(worker.lines.some((l) => l.includes(kind.id))).toBe(false);

    await server!.start();
    await expectTranscribedOnce(w, kind.id);
  });

  it("takes up its own claim again only when it says it resumes, without counting an attempt; another worker's resume is an ordinary claim", async () => {
    const w = await world("resume-claim");
    const { kind } = await answerVideo(w.candidate.id, w.video.question.id, undefined, fixtureFile());
    const a = new MediaWorker(workerConfig({ policy: { leaseMs: 3_600_000, maxAttempts: 1 } }), { log: () => {} });
    const b = new MediaWorker(workerConfig({ policy: { leaseMs: 3_600_000, maxAttempts: 1 } }), { log: () => {} });
    await Promise.all([a.signIn(), b.signIn()]);
    expect(await a.claim(kind.id)).toMatchObject({ transcriptAttempts: 1 });
    expect(await a.claim(kind.id)).toBeNull(); // the same run asking twice, as before
    expect(await b.claim(kind.id, { resume: true })).toBeNull(); // a's claim has an hour to run
    expect(await stored(kind.id)).toMatchObject({ transcriptAttempts: 1, transcriptClaimedBy: a.claimValue });
    const before = Date.now();
    // its one attempt is not used up by taking it up again
    expect(await a.claim(kind.id, { resume: true })).toMatchObject({ transcriptStatus: "pending", transcriptAttempts: 1 });
    const resumed = await stored(kind.id);
    expect(resumed).toMatchObject({ transcriptAttempts: 1, transcriptClaimedBy: a.claimValue });
    expect(parsePbDate(resumed.transcriptClaimedAt as string)).toBeGreaterThanOrEqual(before); // a fresh lease
  });

  it("keeps the stored recording when PocketBase refuses its seekable file (507), and does the job again later, uncounted", async () => {
    // PocketBase behind a proxy that answers the worker's upload of the seekable file with 507, as a full disk does
    let refuse = true;
    const refused: string[] = [];
    const upstream = new URL(server!.url);
    const proxy = createServer((req, res) => {
      const upload = req.method === "PATCH" && /^\/api\/collections\/video_answers\/records\//.test(req.url ?? "") && /multipart/.test(req.headers["content-type"] ?? "");
      if (refuse && upload) {
        refused.push(req.url!);
        req.resume();
        req.on("end", () => {
          res.writeHead(507, { "content-type": "application/json", "retry-after": "30" });
          res.end(JSON.stringify({ status: 507, message: "Insufficient Storage", data: {} }));
        });
        return;
      }
      const forward = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      forward.on("error", () => res.destroy());
      req.pipe(forward);
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    cleanups.push(() => new Promise<void>((resolve) => proxy.close(() => resolve())));

    const w = await world("resume-full-disk");
    const { kind } = await answerVideo(w.candidate.id, w.video.question.id, undefined, fixtureFile());
    const lines: string[] = [];
    const worker = new MediaWorker(workerConfig({ pbUrl: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`, policy: { leaseMs: 3_600_000, maxAttempts: 1 } }), {
      transcriber: async () => ({ text: TRANSCRIPT, segments: null }),
      log: (line) => void lines.push(line),
    });
    await worker.signIn();

    // refused: the job comes back when the server asks (its Retry-After), the recording stays as it was stored
    expect(await worker.process(kind.id)).toEqual({ result: "retry", retryInMs: 30_000 });
    expect(refused).toHaveLength(1);
    expect(lines.some((l) => l.includes(kind.id) && /507/.test(l) && /storage is full/.test(l))).toBe(true);
    expect(await stored(kind.id)).toMatchObject({
      file: kind.file,
      durationSeconds: 0,
      transcriptStatus: "pending",
      transcriptAttempts: 1,
      transcriptClaimedBy: worker.claimValue,
      transcriptError: "",
    });

    refuse = false; // room again
    expect(await worker.process(kind.id)).toEqual({ result: "done", retryInMs: 0 });
    const record = await stored(kind.id);
    // maxAttempts is 1: the refusal did not use it up
    expect(record).toMatchObject({ transcriptStatus: "done", transcript: TRANSCRIPT, transcriptAttempts: 1, transcriptClaimedBy: "" });
    expect(record.file).not.toBe(kind.file);
    expect(Math.abs((record.durationSeconds as number) - fixtureSeconds())).toBeLessThan(0.5);
  });
});
