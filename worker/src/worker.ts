// The media worker: finds pending video answers (realtime events, a scan on start and a periodic rescan),
// claims each one on the server, makes its file playable and seekable (what a cut recording kept, remuxed, with its
// duration), transcribes its audio in the language of the answer's job and stores the result (an engine that does not
// know that language stores no transcript and a state saying so, never words of another language); failures are retried a bounded number of times, then
// marked failed (at once for a recording with nothing playable left). A server that cannot be reached or cannot take
// a request now (issue 26: a crash, a restart, a full disk) is not a failure of the answer: the job waits for the
// server and is done again under the claim it holds, uncounted. Every request to PocketBase has a timeout
// (timeouts.ts): one that times out is a server trouble like a refused connection, unless the server answers its
// health check meanwhile, which says it is this answer's request that hangs: after WORKER_MAX_ATTEMPTS of those the
// answer is failed, saying it timed out. Each failure stores a word the review turns into the manager's reason
// (transcriptFailure) beside the operator's message (transcriptError).
import { randomUUID } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import PocketBase, { ClientResponseError } from "pocketbase";
import type { WorkerConfig } from "./config";
import {
  afterFailure,
  isClaimable,
  isInterrupted,
  JobQueue,
  parseRetryAfter,
  reconnectDelayMs,
  refusedRetryMs,
  selectJobs,
  serverTrouble,
  type ClaimOwner,
  type FailureOutcome,
  type ServerTrouble,
  type VideoAnswerState,
} from "./jobs";
import { extractAudio, hasAudio } from "./media";
import type { QueueStats, WorkerMetrics } from "./metrics";
import { subscribeRealtime } from "./realtime";
import { repairRecording, UnusableRecordingError } from "./repair";
import { tidySegments, type Transcription } from "./segments";
import { DEFAULT_TIMEOUTS, fileBytes, isTimeout, RequestTimeoutError, timeoutMessage, timeoutSignal, transferTimeoutMs, type TimeoutPolicy } from "./timeouts";
import { createTranscriber, DEFAULT_LANGUAGE, transcribes, unsupportedLanguageReason, type Transcriber } from "./transcribe";

const COLLECTION = "video_answers";
/** Seconds before its expiry at which the SDK renews the superuser token (by refresh, else a new sign-in). */
const AUTH_REFRESH_THRESHOLD_S = 30 * 60;

export interface VideoAnswer extends VideoAnswerState {
  id: string;
  collectionId: string;
  collectionName: string;
  file: string;
  mimeType?: string;
  transcriptAttempts: number;
}

/** A claimed answer, with the language of its job (the claim's answer: server/internal/takes/worker_claims.go). */
export interface ClaimedAnswer extends VideoAnswer {
  language: string;
}

/** Why an answer's transcript failed, as stored for the review (video_answers.transcriptFailure). */
export type TranscriptFailure = "timed_out" | "unreadable_recording" | "transcription_failed" | "processing_failed";

/** language_unsupported: playable, and no transcript, because the engine does not know the job's language. */
export type JobResult = "done" | "retry" | "failed" | "skipped" | "language_unsupported";

/** PocketBase could not take one of a job's requests (see `serverTrouble`): not a failure of the answer. */
export class ServerTroubleError extends Error {
  constructor(
    readonly trouble: ServerTrouble,
    /** the step whose request it was, e.g. "storing the seekable file" */
    readonly step: string,
    readonly status: number,
    readonly retryAfterSeconds: number | undefined,
    /** what the request got: the status and message, or the connection error */
    readonly reason: string,
    /** the request got no answer within its timeout (the connection may be fine) */
    readonly timedOut = false,
  ) {
    super(`${step}: ${reason}`);
    this.name = "ServerTroubleError";
  }
}

/** The transcription engine's own failure (pocketsphinx, or the Whisper-compatible endpoint), with its words. */
class TranscriberError extends Error {
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.name = "TranscriberError";
  }
}

/** A response of PocketBase's outside the SDK (the file download) that was not OK. */
class ResponseStatusError extends Error {
  constructor(
    readonly status: number,
    readonly retryAfterSeconds: number | undefined,
    message: string,
  ) {
    super(message);
  }
}

export class MediaWorker {
  readonly pb: PocketBase;
  /** This process run's claims: the stable worker name plus an id of this run. */
  readonly owner: ClaimOwner;
  private readonly queue = new JobQueue();
  private readonly transcribe: Transcriber;
  private unsubscribe?: () => Promise<void>;
  private rescanTimer?: NodeJS.Timeout;
  private draining?: Promise<void>;
  private stopped = false;
  /**
   * Answers whose job a server trouble cut: this run may hold their claim on the server (it may even have been given
   * it in a reply that never came back), so their next claim asks to resume it.
   */
  private readonly resumable = new Set<string>();
  /** Consecutive refusals (a full disk) per answer, for the growing wait before the job is done again. */
  private readonly refusals = new Map<string, number>();
  /** Per answer, its requests that timed out while the server answered its health check. */
  private readonly timeouts = new Map<string, number>();
  private readonly timeoutPolicy: TimeoutPolicy;
  /** Pending pauses (waits for the server): the realtime client's reconnection and `stop` end them early. */
  private readonly pauses = new Set<() => void>();
  private readonly log: (message: string) => void;
  private readonly metrics?: WorkerMetrics;

  constructor(
    private readonly config: WorkerConfig,
    options: { transcriber?: Transcriber; log?: (message: string) => void; metrics?: WorkerMetrics } = {},
  ) {
    this.pb = new PocketBase(config.pbUrl);
    this.owner = { worker: config.workerId, run: randomUUID().slice(0, 8) };
    this.pb.autoCancellation(false);
    this.timeoutPolicy = config.timeouts ?? DEFAULT_TIMEOUTS;
    // every SDK request (sign-in and token renewal, scans, claims, writes, the file token, the realtime
    // subscription) ends within its timeout; an upload of the seekable file gets its file's share on top
    this.pb.beforeSend = (url, options) => {
      const bytes = fileBytes(options.body);
      const ms = bytes ? transferTimeoutMs(this.timeoutPolicy, bytes) : this.timeoutPolicy.requestMs;
      const what = `${(options.method ?? "GET").toUpperCase()} ${new URL(url).pathname}`;
      return { url, options: { ...options, signal: timeoutSignal(what, ms, options.signal) } };
    };
    // the realtime stream: a connection whose PB_CONNECT does not come within the timeout is dropped and made again
    // (the SDK's own bound, 15 s, is a private field it reads at each connect)
    (this.pb.realtime as unknown as { maxConnectTimeout: number }).maxConnectTimeout = this.timeoutPolicy.requestMs;
    // a refusal's Retry-After (a full disk: issue 26) is a header, which the SDK's errors do not carry
    this.pb.afterSend = (response, data: unknown) => {
      const retryAfter = response.status >= 500 ? response.headers.get("retry-after") : null;
      return retryAfter && data && typeof data === "object" ? { ...data, retryAfter } : data;
    };
    this.transcribe = options.transcriber ?? createTranscriber(config.provider);
    this.log = options.log ?? ((message) => console.log(`[worker] ${message}`));
    this.metrics = options.metrics;
  }

  /** This worker's queue now, for its metrics endpoint. */
  queueStats(): QueueStats {
    return { queued: this.queue.size, running: this.queue.runningCount, oldestQueuedAt: this.queue.oldestQueuedAt() };
  }

  /**
   * Signs in as the superuser. A worker runs for days: before every request the SDK renews a token that is about to
   * run out, and signs in again with the password when it has (the realtime client's resubscriptions included).
   */
  async signIn(): Promise<void> {
    await this.pb.collection("_superusers").authWithPassword(this.config.email, this.config.password, {
      autoRefreshThreshold: AUTH_REFRESH_THRESHOLD_S,
    });
  }

  async start(): Promise<void> {
    await this.signIn();
    this.log(`connected to ${this.config.pbUrl} as ${this.config.email} (worker ${this.claimValue}, ${this.config.provider.kind})`);
    this.unsubscribe = await subscribeRealtime<VideoAnswer>(this.pb, COLLECTION, {
      onEvent: ({ record }) => {
        if (record && isClaimable(record, Date.now(), this.config.policy, this.owner)) this.enqueue(record.id);
      },
      // after a lost connection: a job waiting for the server goes on now, and answers stored meanwhile are found now
      onConnected: () => {
        this.wake();
        void this.scanUntilDone();
      },
      log: this.log,
    });
    try {
      await this.scan();
    } catch (err) {
      // start() is retried as a whole
      await this.unsubscribe().catch(() => {});
      this.unsubscribe = undefined;
      throw err;
    }
    this.rescanTimer = setInterval(() => void this.scan().catch((err) => this.log(`rescan failed: ${describe(err)}`)), this.config.rescanMs);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake();
    await this.unsubscribe?.().catch((err) => this.log(`realtime: unsubscribe failed: ${describe(err)}`));
    if (this.rescanTimer) clearInterval(this.rescanTimer);
    await this.draining;
  }

  /** Every pending answer, so none is missed after downtime or a dropped stream. */
  async scan(): Promise<number> {
    const pending = await this.pb.collection(COLLECTION).getFullList<VideoAnswer>({
      filter: 'transcriptStatus = "pending"',
      sort: "created",
      batch: 200,
    });
    const jobs = selectJobs(pending, Date.now(), this.config.policy, this.owner);
    let added = 0;
    // interrupted jobs go to the front in reverse, so they keep their own order there
    for (const job of [...jobs].reverse()) if (isInterrupted(job, this.owner) && this.enqueue(job.id, { first: true })) added += 1;
    for (const job of jobs) if (!isInterrupted(job, this.owner) && this.enqueue(job.id)) added += 1;
    if (added) this.log(`scan: ${added} pending answer(s) queued`);
    return added;
  }

  /** A scan that a server going away again does not lose: tried again once it answers (until the worker stops). */
  private async scanUntilDone(): Promise<void> {
    for (let tries = 0; !this.stopped; tries++) {
      try {
        await this.scan();
        return;
      } catch (err) {
        const trouble = asServerTrouble(err, "scanning for pending answers");
        this.log(`scan failed: ${describe(trouble ?? err)}${trouble ? "; trying again" : ""}`);
        if (!trouble) return;
        await this.pause(reconnectDelayMs(tries));
      }
    }
  }

  enqueue(id: string, options: { first?: boolean } = {}): boolean {
    if (this.stopped) return false;
    const added = this.queue.offer(id, Date.now(), options);
    if (added) this.drain();
    return added;
  }

  /** Resolves when the queue is empty and nothing runs. */
  idle(): Promise<void> {
    return this.draining ?? Promise.resolve();
  }

  private drain(): void {
    if (this.draining) return;
    this.draining = (async () => {
      let id: string | undefined;
      while (!this.stopped && (id = this.queue.take()) !== undefined) {
        let retryAt: number | undefined;
        const started = Date.now();
        try {
          const outcome = await this.process(id);
          this.metrics?.jobFinished(outcome.result, (Date.now() - started) / 1000);
          if (outcome.result === "retry") retryAt = Date.now() + outcome.retryInMs;
        } catch (err) {
          this.metrics?.jobFinished("error", (Date.now() - started) / 1000);
          this.log(`answer ${id}: ${describe(err)}`);
        } finally {
          this.queue.done(id, retryAt);
          if (retryAt !== undefined) setTimeout(() => this.enqueue(id!), retryAt - Date.now() + 10).unref();
        }
      }
    })().finally(() => {
      this.draining = undefined;
    });
  }

  /**
   * Claims the answer on the server; null when another worker holds it or it is no longer pending. `resume`: this run
   * may hold the claim already (a server trouble cut its job), and takes it up again without a new attempt if so.
   */
  async claim(id: string, { resume = false }: { resume?: boolean } = {}): Promise<ClaimedAnswer | null> {
    try {
      const res = await this.pb.send<{ record: VideoAnswer; language?: string }>(`/api/screenroom/media/video-answers/${encodeURIComponent(id)}/claim`, {
        method: "POST",
        body: {
          worker: this.owner.worker,
          run: this.owner.run,
          leaseSeconds: Math.round(this.config.policy.leaseMs / 1000),
          maxAttempts: this.config.policy.maxAttempts,
          ...(resume ? { resume: true } : {}),
        },
      });
      return { ...res.record, language: res.language || DEFAULT_LANGUAGE };
    } catch (err) {
      if (err instanceof ClientResponseError && (err.status === 409 || err.status === 404)) return null;
      throw err;
    }
  }

  /**
   * One answer, start to finish. When the server cannot be reached, the job waits for it (a health check 0.5 s
   * doubling to 5 s apart, or the realtime client's reconnection) and is done again at once; when it answers but
   * cannot take a request (507: its storage is full), the job is done again later ("retry"). Neither counts as an
   * attempt, and nothing stored is removed meanwhile: the recording stays as it was until its seekable file is taken.
   */
  async process(id: string): Promise<{ result: JobResult; retryInMs: number }> {
    for (;;) {
      try {
        const outcome = await this.attempt(id, this.resumable.has(id));
        this.forget(id);
        return outcome;
      } catch (err) {
        if (!(err instanceof ServerTroubleError)) {
          this.forget(id);
          throw err;
        }
        this.resumable.add(id);
        if (err.timedOut && (await this.healthy())) {
          // the server answers, and this answer's request did not: it is the answer, not the server
          const timeouts = (this.timeouts.get(id) ?? 0) + 1;
          this.timeouts.set(id, timeouts);
          const max = this.config.policy.maxAttempts;
          if (timeouts >= max) {
            const message = `${err.message}; timed out ${timeouts} times while PocketBase answered its health check`;
            this.log(`answer ${id}: ${message}; giving up`);
            this.forget(id);
            await this.recordFailure(id, "failed", "timed_out", message);
            return { result: "failed", retryInMs: 0 };
          }
          this.log(`answer ${id}: ${err.message} while PocketBase answers (time-out ${timeouts} of ${max} for this answer); trying again`);
          await this.pause(reconnectDelayMs(timeouts));
          if (this.stopped) return { result: "skipped", retryInMs: 0 };
          continue;
        }
        if (err.trouble === "refused") {
          const refusals = this.refusals.get(id) ?? 0;
          this.refusals.set(id, refusals + 1);
          const retryInMs = refusedRetryMs(refusals, err.retryAfterSeconds);
          const storage = err.status === 507 ? ": its storage is full" : "";
          this.log(
            `answer ${id}: PocketBase refused ${err.step} (${err.reason}${storage}); not a failed attempt: the job is ` +
              `done again in ${Math.round(retryInMs / 1000)} s, and the stored recording stays as it is until then`,
          );
          return { result: "retry", retryInMs };
        }
        this.log(`answer ${id}: PocketBase is unreachable (${err.message}); the job goes on as soon as it answers`);
        const lost = Date.now();
        if (!(await this.serverAnswers())) return { result: "skipped", retryInMs: 0 };
        this.log(`answer ${id}: PocketBase answers again after ${Date.now() - lost} ms; taking the job up again`);
      }
    }
  }

  /** Forgets what this run kept of an answer's job cut by server troubles. */
  private forget(id: string): void {
    this.resumable.delete(id);
    this.refusals.delete(id);
    this.timeouts.delete(id);
  }

  /** Stores a failure (a retry to come, or given up) with its reason, through the server's troubles. */
  private async recordFailure(id: string, status: "failed" | "pending", failure: TranscriptFailure, message: string): Promise<void> {
    await this.untilStored(id, "recording the failure", () =>
      this.write(id, { transcriptStatus: status, transcriptFailure: failure, transcriptError: message.slice(0, 2000) }),
    ).catch((writeErr) => this.log(`answer ${id}: could not record the failure: ${describe(writeErr)}`));
  }

  /** One try at the job; a server trouble is thrown as a ServerTroubleError, any other failure is recorded. */
  private async attempt(id: string, resume: boolean): Promise<{ result: JobResult; retryInMs: number }> {
    const answer = await this.onServer("claiming the answer", () => this.claim(id, { resume }));
    if (!answer) return { result: "skipped", retryInMs: 0 };
    this.log(`answer ${id}: attempt ${answer.transcriptAttempts}${resume ? ", taken up again" : ""}`);
    const dir = await mkdtemp(join(tmpdir(), "screenroom-worker-"));
    try {
      const local = await this.makeSeekable(answer, dir);
      if (!transcribes(this.transcribe, answer.language)) {
        // nothing for search to index and no captions: empty, not English words made up from other sounds
        const reason = unsupportedLanguageReason(this.transcribe, answer.language);
        await this.onServer("storing the transcript's state", () =>
          this.write(id, { transcript: "", transcriptSegments: null, transcriptStatus: "language_unsupported", transcriptError: reason }),
        );
        this.log(`answer ${id}: no transcript (${reason})`);
        return { result: "language_unsupported", retryInMs: 0 };
      }
      const { text: transcript, segments } = await this.transcribeAnswer(local.file, dir, answer.language);
      // the segments within the stored recording's length, so each one seeks to a time the video has
      const transcriptSegments = segments && tidySegments(segments, local.durationSeconds);
      await this.onServer("storing the transcript", () =>
        this.write(id, { transcript, transcriptSegments, transcriptStatus: "done", transcriptError: "" }),
      );
      const timed = transcriptSegments ? `, ${transcriptSegments.length} timed segment(s)` : ", no times";
      this.log(`answer ${id}: transcript done (${transcript.split(" ").filter(Boolean).length} words${timed})`);
      return { result: "done", retryInMs: 0 };
    } catch (err) {
      if (err instanceof ServerTroubleError) throw err;
      const message = describe(err);
      // the same bytes cannot become playable on a later attempt
      const outcome: FailureOutcome = err instanceof UnusableRecordingError ? { status: "failed" } : afterFailure(answer.transcriptAttempts, this.config.policy);
      const failure: TranscriptFailure =
        err instanceof UnusableRecordingError
          ? "unreadable_recording"
          : isTimeout(err)
            ? "timed_out"
            : err instanceof TranscriberError
              ? "transcription_failed"
              : "processing_failed";
      this.log(`answer ${id}: attempt ${answer.transcriptAttempts} failed (${message}); ${outcome.status === "failed" ? "giving up" : "will retry"}`);
      // the reason goes with a retry too: an answer whose attempts run out at its next claim keeps the last one
      await this.recordFailure(id, outcome.status, failure, message);
      return outcome.status === "failed" ? { result: "failed", retryInMs: 0 } : { result: "retry", retryInMs: outcome.retryInMs };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  /** A request of step `step` to PocketBase, whose server troubles are thrown as ServerTroubleError. */
  private async onServer<T>(step: string, request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (err) {
      throw asServerTrouble(err, step) ?? err;
    }
  }

  /** A write repeated until the server takes it, through its troubles (or until the worker stops). */
  private async untilStored(id: string, step: string, write: () => Promise<void>): Promise<void> {
    for (let refusals = 0, timeouts = 0; ; refusals++) {
      try {
        return await this.onServer(step, write);
      } catch (err) {
        if (!(err instanceof ServerTroubleError) || this.stopped) throw err;
        // a write of this answer's that times out while the server answers others is not tried for ever
        if (err.timedOut && (await this.healthy()) && ++timeouts >= this.config.policy.maxAttempts) throw err;
        this.log(`answer ${id}: PocketBase could not take ${err.message}; trying again`);
        if (err.trouble === "unreachable") {
          if (!(await this.serverAnswers())) throw err;
        } else {
          await this.pause(refusedRetryMs(refusals, err.retryAfterSeconds));
        }
      }
    }
  }

  /** Waits until PocketBase's health check answers; false when the worker stops first. */
  private async serverAnswers(): Promise<boolean> {
    for (let tries = 0; !this.stopped; tries++) {
      await this.pause(reconnectDelayMs(tries));
      if (this.stopped) break;
      if (await this.healthy()) return true;
    }
    return false;
  }

  private async healthy(): Promise<boolean> {
    try {
      const res = await fetch(`${this.config.pbUrl}/api/health`, { signal: timeoutSignal("the health check", this.timeoutPolicy.requestMs) });
      await res.body?.cancel();
      return res.ok;
    } catch {
      return false;
    }
  }

  /** Resolves after `ms`, or earlier on `wake()`. */
  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const end = () => {
        clearTimeout(timer);
        this.pauses.delete(end);
        resolve();
      };
      const timer = setTimeout(end, ms);
      this.pauses.add(end);
    });
  }

  private wake(): void {
    for (const end of [...this.pauses]) end();
  }

  private async download(answer: VideoAnswer, target: string): Promise<void> {
    const token = await this.pb.files.getToken();
    const url = this.pb.files.getURL(answer, answer.file, { token });
    // the answer's headers within the request timeout, then the whole file within its share more
    const controller = new AbortController();
    const what = `downloading ${answer.file}`;
    const expire = (ms: number) => setTimeout(() => controller.abort(new RequestTimeoutError(what, ms)), ms);
    let timer = expire(this.timeoutPolicy.requestMs);
    try {
      const res = await fetch(url, { signal: controller.signal });
      if (!res.ok || !res.body) {
        await res.body?.cancel();
        throw new ResponseStatusError(res.status, parseRetryAfter(res.headers.get("retry-after"), Date.now()), `${what} answered ${res.status}`);
      }
      clearTimeout(timer);
      timer = expire(transferTimeoutMs(this.timeoutPolicy, Number(res.headers.get("content-length")) || 0));
      // streamed to disk: recordings go up to 150 MB
      await pipeline(Readable.fromWeb(res.body as import("node:stream/web").ReadableStream), createWriteStream(target), { signal: controller.signal });
    } catch (err) {
      // the stream reports an abort in words of its own: the timeout is what happened
      throw controller.signal.aborted ? controller.signal.reason : err;
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Makes the answer's recording playable (repair.ts: what a cut left of it up to its last complete webm Cluster or
   * mp4 fragment, remuxed with a duration and a seek index) and stores that file in place of the uploaded one, with
   * its duration and type. Returns the local path of the stored file and its duration.
   */
  private async makeSeekable(answer: VideoAnswer, dir: string): Promise<{ file: string; durationSeconds: number }> {
    const original = join(dir, "original");
    await this.onServer("downloading the recording", () => this.download(answer, original));
    const started = Date.now();
    const repaired = await repairRecording(original, dir);
    if (repaired.keptBytes < repaired.totalBytes) {
      this.log(
        `answer ${answer.id}: recording cut at byte ${repaired.totalBytes}; kept ${repaired.keptBytes} bytes ` +
          `(${repaired.units} complete ${repaired.format === "webm" ? "cluster" : "fragment"}(s), ${repaired.durationSeconds.toFixed(2)} s) in ${Date.now() - started} ms`,
      );
    }
    const type = `video/${repaired.format}`;
    const form = new FormData();
    form.append("file", new Blob([await readFile(repaired.file)], { type }), `answer.${repaired.format}`);
    form.append("durationSeconds", String(repaired.durationSeconds));
    form.append("mimeType", type);
    form.append("claimedBy", this.claimValue);
    // refused (a full disk: 507), the uploaded recording stays stored as it is: PocketBase replaces a file only once
    // it has the new one
    await this.onServer("storing the seekable file", () => this.pb.collection(COLLECTION).update(answer.id, form));
    return { file: repaired.file, durationSeconds: repaired.durationSeconds };
  }

  /** A recording without sound has an empty transcript, timed (no segment), like one in which nothing was said. */
  private async transcribeAnswer(recording: string, dir: string, language: string): Promise<Transcription> {
    if (!(await hasAudio(recording))) return { text: "", segments: [] };
    const wav = join(dir, "audio.wav");
    await extractAudio(recording, wav);
    try {
      return await this.transcribe(wav, language);
    } catch (err) {
      throw new TranscriberError(err);
    }
  }

  /** A write guarded by the claim: refused by the server if this worker lost it meanwhile. */
  private async write(id: string, fields: Record<string, unknown>): Promise<void> {
    const release = fields.transcriptStatus !== undefined ? { transcriptClaimedBy: "" } : {};
    await this.pb.collection(COLLECTION).update(id, { ...fields, ...release, claimedBy: this.claimValue });
  }

  get claimValue(): string {
    return `${this.owner.worker}#${this.owner.run}`;
  }
}

/** Node's codes for a connection that could not be made or was cut (on the error or its `cause`s). */
const CONNECTION_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ECONNABORTED", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "UND_ERR_SOCKET", "UND_ERR_CLOSED", "UND_ERR_CONNECT_TIMEOUT"]);

/** Whether fetch failed for want of a server (refused, reset, cut mid-body): undici says "fetch failed" or "terminated". */
function isConnectionError(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && CONNECTION_CODES.has(code)) return true;
    if (e instanceof TypeError && (e.message === "fetch failed" || e.message === "terminated")) return true;
  }
  return false;
}

/** The error as a ServerTroubleError of `step` when it is the server's trouble (see `serverTrouble`), else null. */
export function asServerTrouble(err: unknown, step: string): ServerTroubleError | null {
  if (err instanceof ServerTroubleError) return err;
  // no answer in time: the connection may stand, and nothing was said of the request
  if (isTimeout(err)) return new ServerTroubleError("unreachable", step, 0, undefined, describe(err), true);
  if (err instanceof ClientResponseError || err instanceof ResponseStatusError) {
    const retryAfterSeconds =
      err instanceof ClientResponseError ? parseRetryAfter((err.response as { retryAfter?: string } | undefined)?.retryAfter, Date.now()) : err.retryAfterSeconds;
    const trouble = serverTrouble(err.status, retryAfterSeconds !== undefined);
    return trouble && new ServerTroubleError(trouble, step, err.status, retryAfterSeconds, describe(err));
  }
  if (isConnectionError(err)) return new ServerTroubleError("unreachable", step, 0, undefined, describe(err));
  return null;
}

function describe(err: unknown): string {
  const timedOut = timeoutMessage(err);
  if (timedOut) return timedOut;
  if (err instanceof ClientResponseError) return `${err.status} ${err.message} ${JSON.stringify(err.response?.data ?? {})}`;
  return err instanceof Error ? err.message : String(err);
}
