// More than one media worker (issue 19): two worker processes (worker/run.mjs, as deployed) on one PocketBase of
// this suite's own share the queue through the claims and leases of issue 26. One is killed with SIGKILL in the middle
// of a job; every answer still ends done, each transcribed by exactly one successful job, and no answer is lost: the
// killed worker's job is taken over by the other once its lease runs out.
import type { ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { stopChild } from "../../scripts/lib/pocketbase.mjs";
import { startWorker } from "../../worker/run.mjs";
import { answerVideo, newCandidateOf, randomId, useOwnServer, world, type OwnServer } from "../helpers";
import { admin } from "../support";
import { FIXTURES } from "./media-fixtures";

const FIXTURE = join(FIXTURES, "mediarecorder-unsized.webm");
const TRANSCRIPT = "I would like to work with you.";
const ANSWERS = 6;

let server: OwnServer | undefined;
const children: ChildProcess[] = [];
const closers: (() => Promise<void>)[] = [];
beforeAll(async () => {
  server = await useOwnServer();
});
afterAll(async () => {
  for (const child of children) await stopChild(child);
  for (const close of closers) await close();
  await server?.stop();
});

/**
 * A Whisper-compatible endpoint that holds every request until `release()`, so the test knows both workers are in
 * the middle of a job; afterwards it answers at once.
 */
async function holdingEndpoint() {
  const held: ServerResponse[] = [];
  let holding = true;
  let requests = 0;
  const waiters = new Set<() => void>();
  const answer = (res: ServerResponse) => {
    if (res.destroyed) return;
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ text: TRANSCRIPT }));
  };
  const endpoint = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      requests += 1;
      if (holding) held.push(res);
      else answer(res);
      for (const wake of waiters) wake();
    });
  });
  await new Promise<void>((resolve) => endpoint.listen(0, "127.0.0.1", resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        endpoint.closeAllConnections();
        endpoint.close(() => resolve());
      }),
  );
  return {
    url: `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/v1/audio/transcriptions`,
    requests: () => requests,
    /** resolves once `n` requests are held */
    heldAtLeast: (n: number) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (held.length >= n) {
            waiters.delete(check);
            resolve();
          }
        };
        waiters.add(check);
        check();
      }),
    release() {
      holding = false;
      for (const res of held.splice(0)) answer(res);
    },
  };
}

/** One worker process; its output lines kept apart from the other's. */
async function mediaWorker(name: string, transcribeUrl: string) {
  const lines: string[] = [];
  const child = await startWorker({
    url: server!.url,
    superuser: inject("superuser"),
    env: {
      WORKER_ID: `${name}-${randomId()}`,
      // a short lease and rescan, so the survivor takes over the killed worker's job within the test's time
      WORKER_LEASE_SECONDS: "5",
      WORKER_RESCAN_SECONDS: "2",
      WORKER_MAX_ATTEMPTS: "3",
      TRANSCRIBE_PROVIDER: "whisper",
      TRANSCRIBE_URL: transcribeUrl,
      TRANSCRIBE_API_KEY: "",
    },
    onOutput: (text) => {
      for (const line of text.split("\n").filter(Boolean)) {
        lines.push(line);
        console.log(`${name}: ${line}`);
      }
    },
  });
  children.push(child);
  return { child, lines };
}

/** The answers a worker's output says it started an attempt of. */
const attemptsIn = (lines: string[]) => lines.flatMap((l) => /answer (\S+): attempt \d+/.exec(l)?.[1] ?? []);
const doneIn = (lines: string[]) => lines.flatMap((l) => /answer (\S+): transcript done/.exec(l)?.[1] ?? []);

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms; last ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe("two media workers on one PocketBase", () => {
  it(
    "share the queue: one killed mid-job, every answer ends done by exactly one successful job, none processed twice",
    async () => {
      const w = await world("two-workers");
      const ids: string[] = [];
      const file = () => new File([readFileSync(FIXTURE)], "answer.webm", { type: "video/webm" });
      // each candidate answers each question once: a candidate of their own for every answer
      const { kind } = await answerVideo(w.candidate.id, w.video.question.id, undefined, file());
      ids.push(kind.id);
      for (let i = 1; i < ANSWERS; i++) {
        const candidate = await newCandidateOf(w, `two-workers-${i}`);
        ids.push((await answerVideo(candidate, w.video.question.id, undefined, file())).kind.id);
      }

      const endpoint = await holdingEndpoint();
      const a = await mediaWorker("worker-a", endpoint.url);
      const b = await mediaWorker("worker-b", endpoint.url);
      // both are in the middle of a job (each holds one answer's transcription): never the same answer
      await endpoint.heldAtLeast(2);
      await waitFor(async () => attemptsIn(a.lines).length > 0 && attemptsIn(b.lines).length > 0, (v) => v, "both workers at work");
      const killedJob = attemptsIn(a.lines).at(-1)!;
      expect(attemptsIn(b.lines)).not.toContain(killedJob);

      await stopChild(a.child, "SIGKILL");
      endpoint.release();

      const su = await admin();
      const done = await waitFor(
        () => su.collection("video_answers").getFullList({ filter: ids.map((id) => `id = "${id}"`).join(" || ") }),
        (rows) => rows.length === ANSWERS && rows.every((r) => r.transcriptStatus === "done"),
        "every answer done",
      );
      for (const row of done) {
        expect(row).toMatchObject({ transcriptStatus: "done", transcript: TRANSCRIPT, transcriptClaimedBy: "", transcriptError: "" });
        expect(row.durationSeconds).toBeGreaterThan(0);
        // one attempt each, but the killed worker's job: its claim counted, and the survivor's
        expect(row.transcriptAttempts).toBe(row.id === killedJob ? 2 : 1);
      }
      // exactly one successful processing of each answer across both workers; the killed one finished none of its last
      // (a worker logs "transcript done" after its save: on a loaded machine its line can reach us after the server
      // shows the answer done, so wait for the lines, then compare: any answer done twice would show twice)
      const finished = await waitFor(
        async () => [...doneIn(a.lines), ...doneIn(b.lines)].sort(),
        (lines) => ids.every((id) => lines.includes(id)),
        "every answer's done line",
        30_000,
      );
      expect(finished).toEqual([...ids].sort());
      expect(doneIn(a.lines)).not.toContain(killedJob);
      // the survivor took over the killed worker's job
      expect(doneIn(b.lines)).toContain(killedJob);
    },
    180_000,
  );
});
