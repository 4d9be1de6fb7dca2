// A server that accepts the connection and never answers does not hang the media worker: every request it makes has a
// timeout (worker/src/timeouts.ts). In front of this suite's PocketBase, a TCP server of the test's own (node:net)
// either passes each connection's bytes through or, frozen, accepts them and never answers. A time-out while the
// health check fails too is the server's trouble: the job waits for it, uncounted, and goes on when it answers. A
// request that hangs for one answer only while the server answers the rest ends, after WORKER_MAX_ATTEMPTS time-outs,
// as a failed transcript saying it timed out, and the worker goes on with its next job. Each wait below is bounded far
// above the one-second timeouts, and only a worker whose requests end can pass.
import { readFileSync } from "node:fs";
import { createServer as createHttpServer, request, type ServerResponse } from "node:http";
import { connect, createServer, type AddressInfo, type Server, type Socket } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { MediaWorker } from "../../worker/src/worker";
import { answerVideo, newCandidateOf, pbUrl, world } from "../helpers";
import { admin } from "../support";
import { FIXTURES } from "./media-fixtures";
import { workerConfig } from "./support";

const FIXTURE = join(FIXTURES, "mediarecorder-unsized.webm");
const TRANSCRIPT = "I would like to work with you.";
const TIMEOUTS = { requestMs: 1_000, transferMsPerMB: 1_000 };
// far above the one-second timeouts and the job itself, below the suite's 120 s test timeout
const BOUND_MS = 60_000;

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const fixtureFile = () => new File([readFileSync(FIXTURE)], "answer.webm", { type: "video/webm" });

/** Two candidates of one job, each with a stored video answer the worker has not seen: the video answers' ids. */
async function twoAnswers(label: string): Promise<[string, string]> {
  const w = await world(label);
  const first = await answerVideo(w.candidate.id, w.video.question.id, undefined, fixtureFile());
  const second = await answerVideo(await newCandidateOf(w, `${label}-second`), w.video.question.id, undefined, fixtureFile());
  return [first.kind.id, second.kind.id];
}

async function stored(id: string) {
  return (await admin()).collection("video_answers").getOne(id);
}

function upstream() {
  const url = new URL(pbUrl());
  return { host: url.hostname, port: Number(url.port) };
}

async function listening(server: Server | ReturnType<typeof createHttpServer>): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/**
 * PocketBase behind a TCP front: `frozen`, every connection (new, or kept alive from before) is accepted and its bytes
 * are read and dropped, so no request reaches the server and no answer comes; otherwise the bytes pass both ways.
 */
async function tcpFront() {
  let frozen = false;
  let dropped = 0;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    sockets.add(client);
    let server: Socket | undefined;
    client.on("data", (chunk) => {
      if (frozen) {
        dropped += 1;
        return;
      }
      if (!server) {
        server = connect(upstream());
        sockets.add(server);
        server.on("data", (answer) => client.write(answer));
        server.on("close", () => client.destroy());
        server.on("error", () => client.destroy());
      }
      server.write(chunk);
    });
    client.on("close", () => server?.destroy());
    client.on("error", () => server?.destroy());
  });
  const url = await listening(server);
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  );
  return {
    url,
    freeze: () => void (frozen = true),
    thaw: () => void (frozen = false),
    /** chunks of requests read and never answered */
    dropped: () => dropped,
  };
}

/** A worker of the test's own on `url`, with one-second timeouts, a transcriber that answers at once, and its log. */
async function mediaWorker(url: string, maxAttempts: number) {
  const lines: string[] = [];
  const waiters = new Set<() => void>();
  const worker = new MediaWorker(workerConfig({ pbUrl: url, timeouts: TIMEOUTS, policy: { leaseMs: 3_600_000, maxAttempts } }), {
    transcriber: async () => ({ text: TRANSCRIPT, segments: null }),
    log: (line) => {
      lines.push(line);
      for (const waiter of waiters) waiter();
    },
  });
  cleanups.push(() => worker.stop());
  /** The first log line that matches, waited for at most BOUND_MS. */
  const line = (match: (line: string) => boolean, what: string) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        const found = lines.find(match);
        if (found === undefined) return;
        clearTimeout(timer);
        waiters.delete(check);
        resolve(found);
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`${what}: not within ${BOUND_MS} ms; the worker said:\n${lines.join("\n")}`));
      }, BOUND_MS);
      waiters.add(check);
      check();
    });
  return { worker, lines, line };
}

/** `promise`, or a rejection saying `what` did not end within BOUND_MS. */
function within<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not within ${BOUND_MS} ms`)), BOUND_MS);
  });
  return Promise.race([promise, bound]).finally(() => clearTimeout(timer));
}

describe("a server that accepts and never answers", () => {
  it("ends the worker's request within its timeout, waits for the server uncounted, and goes on with the next job once it answers", async () => {
    const [first, second] = await twoAnswers("hung-server");
    const front = await tcpFront();
    // one attempt per answer: a time-out counted as an attempt would fail the answer
    const { worker, line } = await mediaWorker(front.url, 1);
    await worker.signIn(); // its connection stays open, kept alive, and is frozen with the rest

    front.freeze();
    const job = worker.process(first);
    const cut = await line((l) => l.includes(first) && l.includes("PocketBase is unreachable"), "the claim ending on its timeout");
    expect(cut).toMatch(/no answer within 1 s/);
    expect(front.dropped()).toBeGreaterThan(0); // the request was sent, accepted and never answered
    expect(await stored(first)).toMatchObject({ transcriptStatus: "pending", transcriptAttempts: 0 });

    front.thaw();
    expect(await within(job, "the job once the server answers")).toEqual({ result: "done", retryInMs: 0 });
    expect(await stored(first)).toMatchObject({ transcriptStatus: "done", transcript: TRANSCRIPT, transcriptAttempts: 1, transcriptFailure: "" });
    expect(await within(worker.process(second), "the next job")).toEqual({ result: "done", retryInMs: 0 });
    expect(await stored(second)).toMatchObject({ transcriptStatus: "done", transcriptAttempts: 1 });
  });

  it("does not let a worker start against it: the sign-in ends on its timeout, and the worker starts once the server answers", async () => {
    const front = await tcpFront();
    const { worker } = await mediaWorker(front.url, 3);
    front.freeze();
    const refused = await within(
      worker.start().then(
        () => null,
        (err: unknown) => err,
      ),
      "the start against a server that never answers",
    );
    expect(refused).toBeInstanceOf(Error);
    expect(String((refused as { originalError?: unknown }).originalError ?? refused)).toMatch(/no answer within 1 s/);

    front.thaw();
    await within(worker.start(), "the start once the server answers");
  });

  it("fails an answer whose request alone hangs after WORKER_MAX_ATTEMPTS time-outs, saying it timed out, and does the next answer", async () => {
    const [first, second] = await twoAnswers("hung-answer");
    // an HTTP front that passes every request on, except the download of the first answer's recording: accepted,
    // read, never answered
    const held: ServerResponse[] = [];
    const front = createHttpServer((req, res) => {
      if (req.method === "GET" && (req.url ?? "").startsWith("/api/files/") && (req.url ?? "").includes(`/${first}/`)) {
        held.push(res);
        req.resume();
        return;
      }
      const forward = request({ ...upstream(), method: req.method, path: req.url, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      forward.on("error", () => res.destroy());
      req.pipe(forward);
    });
    const url = await listening(front);
    cleanups.push(
      () =>
        new Promise<void>((resolve) => {
          for (const res of held) res.destroy();
          front.closeAllConnections();
          front.close(() => resolve());
        }),
    );
    const { worker } = await mediaWorker(url, 3);
    await worker.signIn();

    expect(await within(worker.process(first), "the answer whose download hangs")).toEqual({ result: "failed", retryInMs: 0 });
    expect(held).toHaveLength(3);
    const failed = await stored(first);
    expect(failed).toMatchObject({ transcriptStatus: "failed", transcriptFailure: "timed_out", transcriptClaimedBy: "" });
    // the time-outs resumed its one claim: the server did not count them as attempts
    expect(failed.transcriptAttempts).toBe(1);
    expect(failed.transcriptError).toMatch(/downloading .*no answer within 1 s; timed out 3 times while PocketBase answered/);

    expect(await within(worker.process(second), "the next answer")).toEqual({ result: "done", retryInMs: 0 });
    expect(await stored(second)).toMatchObject({ transcriptStatus: "done", transcript: TRANSCRIPT });
  });
});
