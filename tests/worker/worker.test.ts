// The media worker against a real PocketBase (the project's migrations and hooks): a LibriVox answer gets a
// seekable file and a transcript close to the clip's reference; claims are exclusive; failures are retried a
// bounded number of times; a worker restarted mid-job takes its job back; realtime events start jobs.
import { execFileSync } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RecordModel } from "pocketbase";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { MediaWorker } from "../../worker/src/worker";
import { answerVideo, pbUrl, randomId, useOwnServer, world } from "../helpers";
import { admin } from "../support";
import { durationOf, LIBRIVOX, recordingOf, recordingOfClips, referenceOf, wordErrorRate } from "./media-fixtures";
import { workerConfig } from "./support";

// the clip the e2e fake microphone plays, 22 words
const CLIP = "sense_and_sensibility_01_austen_64kb-0870";
// "he was not an ill disposed young man"
const SECOND_CLIP = "sense_and_sensibility_01_austen_64kb-0880";

interface Segment {
  start: number;
  end: number;
  text: string;
}

/**
 * A stored answer's timed transcript as the review screen reads it: segments in order, none overlapping the next,
 * each within the stored recording, in seconds with two decimals, their texts joined being the transcript.
 */
function expectTimedTranscript(record: RecordModel): Segment[] {
  const segments = record.transcriptSegments as Segment[];
  expect(Array.isArray(segments)).toBe(true);
  expect(segments.length).toBeGreaterThan(0);
  const duration = record.durationSeconds as number;
  for (const [i, segment] of segments.entries()) {
    expect(Object.keys(segment).sort()).toEqual(["end", "start", "text"]);
    expect(segment.start).toBeGreaterThanOrEqual(i ? segments[i - 1]!.end : 0);
    expect(segment.end).toBeGreaterThanOrEqual(segment.start);
    expect(segment.end).toBeLessThanOrEqual(duration);
    for (const time of [segment.start, segment.end]) expect(Math.round(time * 100) / 100).toBe(time);
    expect(segment.text).toBe(segment.text.trim());
    expect(segment.text).not.toBe("");
  }
  expect(segments.map((s) => s.text).join(" ")).toBe(record.transcript);
  return segments;
}

/** The segment whose words hold `word`. */
function segmentWith(segments: Segment[], word: string): Segment | undefined {
  return segments.find((s) => s.text.split(" ").includes(word));
}

const config = workerConfig;

const started: MediaWorker[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((w) => w.stop()));
});

// A server of this suite's own: a worker that starts takes every pending answer on its server, and the shared
// one holds the untranscribed answers of every suite before this one, which a started worker would work through
// (ffmpeg and pocketsphinx each) before the answer a test waits for.
let server: Awaited<ReturnType<typeof useOwnServer>> | undefined;
beforeAll(async () => {
  server = await useOwnServer();
});
afterAll(async () => {
  await server?.stop();
});

/** A worker's log, with a way to wait for a line. */
function logOf() {
  const lines: string[] = [];
  return {
    lines,
    log: (line: string) => void lines.push(line),
    waitFor: (pattern: RegExp, timeoutMs = 60_000) => waitFor(async () => lines.find((l) => pattern.test(l)), (l) => l !== undefined, timeoutMs),
  };
}

/** A candidate's video answer, uploaded as the candidate, as the app does; `language`: its job's. */
async function videoAnswer(recording = recordingOf(CLIP), language?: string) {
  const w = await world("media");
  if (language) await w.manager.pb.collection("jobs").update(w.job.id, { language });
  const { kind } = await answerVideo(w.candidate.id, w.video.question.id, undefined, new File([readFileSync(recording)], "answer.webm", { type: "video/webm" }));
  return { ...w, videoAnswer: kind };
}

async function stored(id: string) {
  const su = await admin();
  return su.collection("video_answers").getOne(id);
}

async function durationOfStoredFile(record: RecordModel): Promise<number> {
  const su = await admin();
  const token = await su.files.getToken();
  const res = await fetch(su.files.getURL(record, record.file as string, { token }));
  expect(res.status).toBe(200);
  const path = join(mkdtempSync(join(tmpdir(), "screenroom-probe-")), "stored.webm");
  writeFileSync(path, Buffer.from(await res.arrayBuffer()));
  const out = execFileSync("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", path], { encoding: "utf8" });
  return Number(out.trim());
}

/** Polls until `done`; its bound is far above the slowest run under load, and below each test's own timeout. */
async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`not there after ${timeoutMs} ms; last value ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} did not happen within ${ms} ms`)), ms)));
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

// each started worker's test's own bound: above its inner waits added up (120 s of backlog, 60 s for a transcript)
const WORKER_TEST_TIMEOUT = 240_000;

describe("media worker", () => {
  it("transcribes a LibriVox answer with pocketsphinx and stores a seekable file with its duration", async () => {
    const { videoAnswer: answer } = await videoAnswer();
    expect(answer.transcriptStatus).toBe("pending");
    const worker = new MediaWorker(config());
    await worker.signIn();
    expect(await worker.process(answer.id)).toEqual({ result: "done", retryInMs: 0 });

    const record = await stored(answer.id);
    expect(record.transcriptStatus).toBe("done");
    expect(record.transcriptAttempts).toBe(1);
    expect(record.transcriptClaimedBy).toBe("");
    const reference = referenceOf(CLIP);
    const wer = wordErrorRate(reference, record.transcript as string);
    console.log(`WER ${(wer * 100).toFixed(1)}%\n  reference:  ${reference}\n  transcript: ${record.transcript}`);
    expect(wer).toBeLessThanOrEqual(0.45);

    const segments = expectTimedTranscript(record);
    console.log(`segments:\n${segments.map((s) => `  ${s.start.toFixed(2)}-${s.end.toFixed(2)} ${s.text}`).join("\n")}`);
    // 22 words without a pause: more than one segment (at most 12 words each), the last one ending with the speech
    expect(segments.length).toBeGreaterThan(1);
    for (const segment of segments) expect(segment.text.split(" ").length).toBeLessThanOrEqual(12);
    expect(segments.at(-1)!.end).toBeGreaterThan(durationOf(join(LIBRIVOX, `${CLIP}.wav`)) - 1);

    const probed = await durationOfStoredFile(record);
    expect(Number.isFinite(probed)).toBe(true);
    expect(probed).toBeGreaterThan(2);
    expect(record.durationSeconds).toBeCloseTo(probed, 1);
    expect(record.file).not.toBe(answer.file);
  });

  it(
    "times the transcript with pocketsphinx: words said after a silence are in segments that start after it",
    async () => {
      // the first clip (7.1 s) from 0 s, 3 s of silence, the second clip from 10.1 s to 13.1 s
      const first = durationOf(join(LIBRIVOX, `${CLIP}.wav`));
      const second = first + 3;
      const { videoAnswer: answer } = await videoAnswer(recordingOfClips([CLIP, SECOND_CLIP], 3));
      const worker = new MediaWorker(config(), { log: () => {} });
      await worker.signIn();
      expect((await worker.process(answer.id)).result).toBe("done");

      const record = await stored(answer.id);
      const segments = expectTimedTranscript(record);
      console.log(`transcript: ${record.transcript}\nsegments:\n${segments.map((s) => `  ${s.start.toFixed(2)}-${s.end.toFixed(2)} ${s.text}`).join("\n")}`);
      expect(record.durationSeconds).toBeGreaterThan(second + 2);
      // no segment runs through the silence (a frame's margin either side)
      for (const segment of segments) expect(segment.end <= first + 0.1 || segment.start >= second - 0.1).toBe(true);
      // "consider" is in the first clip, "young man" in the second: each in a segment of its own clip's time
      const consider = segmentWith(segments, "consider");
      expect(consider?.end).toBeLessThanOrEqual(first + 0.1);
      const young = segmentWith(segments, "young") ?? segmentWith(segments, "man");
      expect(young?.start).toBeGreaterThanOrEqual(second - 0.1);
    },
    WORKER_TEST_TIMEOUT,
  );

  it("sends 16 kHz mono wav audio to a configured Whisper-compatible endpoint and stores its text and segments", async () => {
    const received: { auth: string; model: string; format: string; language: string; rate: number; channels: number; bits: number }[] = [];
    const endpoint = createServer((req, res) => {
      void (async () => {
        const chunks: Buffer[] = [];
        for await (const chunk of req) chunks.push(chunk as Buffer);
        const form = await new Response(Buffer.concat(chunks), { headers: { "content-type": req.headers["content-type"] ?? "" } }).formData();
        const file = form.get("file");
        const wav = Buffer.from(await (file as Blob).arrayBuffer());
        received.push({
          auth: req.headers.authorization ?? "",
          model: String(form.get("model")),
          format: String(form.get("response_format")),
          language: String(form.get("language")),
          channels: wav.readUInt16LE(22),
          rate: wav.readUInt32LE(24),
          bits: wav.readUInt16LE(34),
        });
        res.writeHead(200, { "content-type": "application/json" });
        const text = "He was not an ill disposed young man.";
        // Whisper's last segment may end at its 30 s window, past the audio
        const segments = [
          { id: 0, seek: 0, start: 0, end: 2.48, text: " He was not an", tokens: [1], temperature: 0, avg_logprob: -0.2, compression_ratio: 1, no_speech_prob: 0 },
          { id: 1, seek: 0, start: 2.48, end: 30, text: " ill disposed young man.", tokens: [2], temperature: 0, avg_logprob: -0.2, compression_ratio: 1, no_speech_prob: 0 },
        ];
        res.end(JSON.stringify(form.get("response_format") === "verbose_json" ? { task: "transcribe", language: "english", duration: 7.1, text, segments } : { text }));
      })();
    });
    await new Promise<void>((resolve) => endpoint.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = endpoint.address() as AddressInfo;
      const { videoAnswer: answer } = await videoAnswer();
      const worker = new MediaWorker(
        config({ provider: { kind: "whisper", url: `http://127.0.0.1:${port}/v1/audio/transcriptions`, apiKey: "sk-local", model: "whisper-1" } }),
        { log: () => {} },
      );
      await worker.signIn();
      expect((await worker.process(answer.id)).result).toBe("done");
      // a job without a language is English, and the endpoint is told so
      expect(received).toEqual([{ auth: "Bearer sk-local", model: "whisper-1", format: "verbose_json", language: "en", channels: 1, rate: 16000, bits: 16 }]);
      const record = await stored(answer.id);
      expect(record).toMatchObject({ transcriptStatus: "done", transcript: "He was not an ill disposed young man." });
      const duration = Math.floor((record.durationSeconds as number) * 100) / 100;
      expect(record.transcriptSegments).toEqual([
        { start: 0, end: 2.48, text: "He was not an" },
        { start: 2.48, end: duration, text: "ill disposed young man." },
      ]);
      expectTimedTranscript(record);
    } finally {
      await new Promise<void>((resolve) => endpoint.close(() => resolve()));
    }
  });

  it("stores the text and no segments when the Whisper-compatible endpoint answers plain json to verbose_json", async () => {
    const formats: string[] = [];
    const endpoint = createServer((req, res) => {
      void (async () => {
        const chunks: Buffer[] = [];
        for await (const chunk of req) chunks.push(chunk as Buffer);
        const form = await new Response(Buffer.concat(chunks), { headers: { "content-type": req.headers["content-type"] ?? "" } }).formData();
        formats.push(String(form.get("response_format")));
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ text: " He was not an ill disposed young man. " }));
      })();
    });
    await new Promise<void>((resolve) => endpoint.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = endpoint.address() as AddressInfo;
      const { videoAnswer: answer } = await videoAnswer();
      expect(answer.transcriptSegments).toBeNull(); // as every answer transcribed before segments existed
      const worker = new MediaWorker(
        config({ provider: { kind: "whisper", url: `http://127.0.0.1:${port}/v1/audio/transcriptions`, apiKey: "", model: "whisper-1" } }),
        { log: () => {} },
      );
      await worker.signIn();
      expect((await worker.process(answer.id)).result).toBe("done");
      expect(formats).toEqual(["verbose_json"]);
      const record = await stored(answer.id);
      expect(record).toMatchObject({ transcriptStatus: "done", transcript: "He was not an ill disposed young man." });
      expect(record.transcriptSegments).toBeNull();
    } finally {
      await new Promise<void>((resolve) => endpoint.close(() => resolve()));
    }
  });

  it("sends a German job's answer to the Whisper-compatible endpoint with language=de and stores its transcript", async () => {
    const languages: string[] = [];
    const endpoint = createServer((req, res) => {
      void (async () => {
        const chunks: Buffer[] = [];
        for await (const chunk of req) chunks.push(chunk as Buffer);
        const form = await new Response(Buffer.concat(chunks), { headers: { "content-type": req.headers["content-type"] ?? "" } }).formData();
        languages.push(String(form.get("language")));
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ task: "transcribe", language: "german", duration: 7.1, text: " Er war kein übelgesinnter junger Mann. ", segments: [{ id: 0, start: 0, end: 2.5, text: " Er war kein übelgesinnter junger Mann." }] }));
      })();
    });
    await new Promise<void>((resolve) => endpoint.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = endpoint.address() as AddressInfo;
      const { videoAnswer: answer } = await videoAnswer(recordingOf(CLIP), "de");
      const worker = new MediaWorker(
        config({ provider: { kind: "whisper", url: `http://127.0.0.1:${port}/v1/audio/transcriptions`, apiKey: "", model: "whisper-1" } }),
        { log: () => {} },
      );
      await worker.signIn();
      expect(await worker.process(answer.id)).toEqual({ result: "done", retryInMs: 0 });
      expect(languages).toEqual(["de"]);
      const record = await stored(answer.id);
      expect(record).toMatchObject({ transcriptStatus: "done", transcript: "Er war kein übelgesinnter junger Mann." });
      expect(record.transcriptSegments).toEqual([{ start: 0, end: 2.5, text: "Er war kein übelgesinnter junger Mann." }]);
    } finally {
      await new Promise<void>((resolve) => endpoint.close(() => resolve()));
    }
  });

  it(
    "gives a German job's answer no transcript with the built-in engine, a state saying why, and a playable file; search finds none of it",
    async () => {
      const { videoAnswer: answer, manager, company, candidate } = await videoAnswer(recordingOf(CLIP), "de");
      const logged = logOf();
      const worker = new MediaWorker(config(), { log: logged.log });
      await worker.signIn();
      expect(await worker.process(answer.id)).toEqual({ result: "language_unsupported", retryInMs: 0 });

      const record = await stored(answer.id);
      expect(record).toMatchObject({ transcriptStatus: "language_unsupported", transcript: "", transcriptSegments: null, transcriptClaimedBy: "", transcriptAttempts: 1 });
      expect(record.transcriptError).toMatch(/job is in "de".*knows only "en".*TRANSCRIBE_URL/);
      expect(logged.lines.some((line) => line.includes(`answer ${answer.id}: no transcript`))).toBe(true);
      // still made playable and seekable: the manager watches it without a transcript
      expect(record.file).not.toBe(answer.file);
      expect(record.durationSeconds).toBeCloseTo(await durationOfStoredFile(record), 1);

      // the manager's review reads the state (its words are the review screen's), and no made-up English text
      const review = JSON.stringify(await manager.pb.send(`/api/screenroom/reviews/${candidate.id}`, { method: "GET" }));
      expect(review).toContain('"transcriptStatus":"language_unsupported"');
      // nothing indexed for search: not a word of the clip is found in the company
      const words = [...new Set(referenceOf(CLIP).toLowerCase().split(/\s+/).filter((word) => word.length > 3))];
      for (const word of words) {
        const { items } = await manager.pb.send<{ items: unknown[] }>(`/api/screenroom/companies/${company.id}/search`, { query: { q: word } });
        expect(items, word).toEqual([]);
      }
      // done with: no scan takes it up again
      expect(await worker.claim(answer.id)).toBeNull();
    },
    WORKER_TEST_TIMEOUT,
  );

  it("signs in again when its superuser token ran out (a worker runs longer than a token lasts)", async () => {
    const { videoAnswer: answer } = await videoAnswer();
    const worker = new MediaWorker(config(), { log: () => {} });
    await worker.signIn();
    const [header, payload] = worker.pb.authStore.token.split(".");
    const claims = JSON.parse(Buffer.from(payload!, "base64url").toString()) as Record<string, unknown>;
    const past = Buffer.from(JSON.stringify({ ...claims, exp: Math.floor(Date.now() / 1000) - 60 })).toString("base64url");
    worker.pb.authStore.save(`${header}.${past}.signature`, worker.pb.authStore.record);
    expect(worker.pb.authStore.isValid).toBe(false);
    expect(await worker.claim(answer.id)).not.toBeNull(); // a superuser-only route
    expect(worker.pb.authStore.isValid).toBe(true);
  });

  it("gives an answer to exactly one of two workers claiming it at once", async () => {
    const { videoAnswer: answer } = await videoAnswer();
    const a = new MediaWorker(config());
    const b = new MediaWorker(config());
    await Promise.all([a.signIn(), b.signIn()]);
    const claims = await Promise.all([a.claim(answer.id), b.claim(answer.id), a.claim(answer.id), b.claim(answer.id)]);
    expect(claims.filter((c) => c !== null)).toHaveLength(1);
    expect((await stored(answer.id)).transcriptAttempts).toBe(1);
  });

  it("refuses a result from a worker that lost its claim", async () => {
    const { videoAnswer: answer } = await videoAnswer();
    const a = new MediaWorker(config({ policy: { leaseMs: 1000, maxAttempts: 3 } }));
    const b = new MediaWorker(config({ policy: { leaseMs: 1000, maxAttempts: 3 } }));
    await Promise.all([a.signIn(), b.signIn()]);
    expect(await a.claim(answer.id)).not.toBeNull();
    await new Promise((r) => setTimeout(r, 2100)); // a's lease runs out: b takes over
    expect(await b.claim(answer.id)).not.toBeNull();
    await expect(
      a.pb.collection("video_answers").update(answer.id, { transcript: "stale", transcriptStatus: "done", claimedBy: a.claimValue }),
    ).rejects.toMatchObject({ status: 400 });
    expect((await stored(answer.id)).transcriptStatus).toBe("pending");
  });

  it("retries a failing transcription a bounded number of times, then marks the answer failed", async () => {
    const { videoAnswer: answer } = await videoAnswer();
    let calls = 0;
    const worker = new MediaWorker(config({ policy: { leaseMs: 600_000, maxAttempts: 2 } }), {
      transcriber: async () => {
        calls += 1;
        throw new Error("provider down");
      },
      log: () => {},
    });
    await worker.signIn();
    const first = await worker.process(answer.id);
    expect(first.result).toBe("retry");
    let record = await stored(answer.id);
    // the manager's reason goes with the retry already (the engine's failure, not the recording's)
    expect(record).toMatchObject({ transcriptStatus: "pending", transcriptAttempts: 1, transcriptError: "provider down", transcriptFailure: "transcription_failed", transcriptClaimedBy: "" });
    expect(await worker.process(answer.id)).toEqual({ result: "failed", retryInMs: 0 });
    record = await stored(answer.id);
    expect(record).toMatchObject({ transcriptStatus: "failed", transcriptAttempts: 2, transcriptFailure: "transcription_failed" });
    expect(await worker.process(answer.id)).toEqual({ result: "skipped", retryInMs: 0 });
    expect(calls).toBe(2);
  });

  it("marks an answer failed when its workers kept dying and it used up its attempts", async () => {
    const { videoAnswer: answer } = await videoAnswer();
    const su = await admin();
    await su.collection("video_answers").update(answer.id, {
      transcriptAttempts: 3,
      transcriptClaimedBy: "crashed-worker#1",
      transcriptClaimedAt: "2020-01-01 00:00:00.000Z",
    });
    const worker = new MediaWorker(config(), { log: () => {} });
    await worker.signIn();
    expect(await worker.process(answer.id)).toEqual({ result: "skipped", retryInMs: 0 });
    // no worker said why: each attempt ended with its worker
    expect(await stored(answer.id)).toMatchObject({ transcriptStatus: "failed", transcriptAttempts: 3, transcriptClaimedBy: "", transcriptFailure: "worker_stopped" });
  });

  it(
    "survives a restart mid-job: the same worker takes its job back at once, before an older backlog; another waits for the lease",
    async () => {
      // a backlog older than the interrupted job, as after downtime
      await videoAnswer();
      await videoAnswer();
      const { videoAnswer: answer } = await videoAnswer();
      const id = `restarting-${randomId()}`;
      const crashed = new MediaWorker(config({ workerId: id }));
      await crashed.signIn();
      expect(await crashed.claim(answer.id)).not.toBeNull(); // ...and the process dies here

      const other = new MediaWorker(config());
      await other.signIn();
      expect(await other.process(answer.id)).toEqual({ result: "skipped", retryInMs: 0 });

      const log = logOf();
      const restarted = new MediaWorker(config({ workerId: id }), { log: log.log });
      started.push(restarted);
      await restarted.start(); // the scan on start finds it
      const record = await waitFor(() => stored(answer.id), (r) => r.transcriptStatus === "done");
      expect(record.transcriptAttempts).toBe(2);
      expect(record.transcript).not.toBe("");
      // the interrupted job was the first one the restarted worker took, the backlog only after it
      const attempts = log.lines.filter((l) => /^answer \S+: attempt \d+$/.test(l)).map((l) => l.split(" ")[1]!.replace(/:$/, ""));
      expect(attempts[0]).toBe(answer.id);
    },
    WORKER_TEST_TIMEOUT,
  );

  it(
    "picks up a new answer from the realtime stream while running",
    async () => {
      const log = logOf();
      const worker = new MediaWorker(config(), { log: log.log });
      started.push(worker);
      await worker.start();
      await log.waitFor(/^realtime: subscribed/);
      // whatever the scan on start found (the restart test's backlog) is done first
      await within(worker.idle(), 120_000, "the worker's start-up backlog being done");
      const { videoAnswer: answer } = await videoAnswer();
      const record = await waitFor(() => stored(answer.id), (r) => r.transcriptStatus === "done");
      expect(record.durationSeconds).toBeGreaterThan(2);
      expect(record.transcript).toMatch(/\w+/);
    },
    WORKER_TEST_TIMEOUT,
  );
});

describe("media worker's server side, for everyone else", () => {
  it("lets only superusers claim answers, and nobody else write transcripts", async () => {
    const { videoAnswer: answer, manager } = await videoAnswer();
    const claim = (token?: string) =>
      fetch(`${pbUrl()}/api/screenroom/media/video-answers/${answer.id}/claim`, {
        method: "POST",
        headers: { "Content-Type": "application/json", ...(token ? { Authorization: token } : {}) },
        body: JSON.stringify({ worker: "intruder", run: "1" }),
      });
    expect((await claim()).status).toBe(401);
    expect([401, 403]).toContain((await claim(manager.pb.authStore.token)).status);
    await expect(manager.pb.collection("video_answers").update(answer.id, { transcript: "forged", transcriptStatus: "done" })).rejects.toMatchObject({
      status: 403,
    });
    expect(await stored(answer.id)).toMatchObject({ transcript: "", transcriptStatus: "pending", transcriptClaimedBy: "" });
  });
});
