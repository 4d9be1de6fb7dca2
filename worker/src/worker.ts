// The media worker: finds pending video answers (realtime events, a scan on start and a periodic rescan),
// claims each one on the server, makes its file playable and seekable (what a cut recording kept, remuxed, with its
// duration), transcribes its audio and stores the result; failures are retried a bounded number of times, then
// marked failed (at once for a recording with nothing playable left).
import { randomUUID } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import PocketBase, { ClientResponseError } from "pocketbase";
import type { WorkerConfig } from "./config";
import { afterFailure, isClaimable, isInterrupted, JobQueue, selectJobs, type ClaimOwner, type FailureOutcome, type VideoAnswerState } from "./jobs";
import { extractAudio, hasAudio } from "./media";
import { subscribeRealtime } from "./realtime";
import { repairRecording, UnusableRecordingError } from "./repair";
import { createTranscriber, type Transcriber } from "./transcribe";

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

export type JobResult = "done" | "retry" | "failed" | "skipped";

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
  private readonly log: (message: string) => void;

  constructor(
    private readonly config: WorkerConfig,
    options: { transcriber?: Transcriber; log?: (message: string) => void } = {},
  ) {
    this.pb = new PocketBase(config.pbUrl);
    this.owner = { worker: config.workerId, run: randomUUID().slice(0, 8) };
    this.pb.autoCancellation(false);
    this.transcribe = options.transcriber ?? createTranscriber(config.provider);
    this.log = options.log ?? ((message) => console.log(`[worker] ${message}`));
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
      onConnected: () => void this.scan().catch((err) => this.log(`scan failed: ${describe(err)}`)),
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
        try {
          const outcome = await this.process(id);
          if (outcome.result === "retry") retryAt = Date.now() + outcome.retryInMs;
        } catch (err) {
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

  /** Claims the answer on the server; null when another worker holds it or it is no longer pending. */
  async claim(id: string): Promise<VideoAnswer | null> {
    try {
      const res = await this.pb.send<{ record: VideoAnswer }>(`/api/screenroom/media/video-answers/${encodeURIComponent(id)}/claim`, {
        method: "POST",
        body: {
          worker: this.owner.worker,
          run: this.owner.run,
          leaseSeconds: Math.round(this.config.policy.leaseMs / 1000),
          maxAttempts: this.config.policy.maxAttempts,
        },
      });
      return res.record;
    } catch (err) {
      if (err instanceof ClientResponseError && (err.status === 409 || err.status === 404)) return null;
      throw err;
    }
  }

  /** One answer, start to finish. */
  async process(id: string): Promise<{ result: JobResult; retryInMs: number }> {
    const answer = await this.claim(id);
    if (!answer) return { result: "skipped", retryInMs: 0 };
    this.log(`answer ${id}: attempt ${answer.transcriptAttempts}`);
    const dir = await mkdtemp(join(tmpdir(), "screenroom-worker-"));
    try {
      const local = await this.makeSeekable(answer, dir);
      const transcript = await this.transcribeAnswer(local, dir);
      await this.write(id, { transcript, transcriptStatus: "done", transcriptError: "" });
      this.log(`answer ${id}: transcript done (${transcript.split(" ").filter(Boolean).length} words)`);
      return { result: "done", retryInMs: 0 };
    } catch (err) {
      const message = describe(err);
      // the same bytes cannot become playable on a later attempt
      const outcome: FailureOutcome = err instanceof UnusableRecordingError ? { status: "failed" } : afterFailure(answer.transcriptAttempts, this.config.policy);
      this.log(`answer ${id}: attempt ${answer.transcriptAttempts} failed (${message}); ${outcome.status === "failed" ? "giving up" : "will retry"}`);
      await this.write(id, { transcriptStatus: outcome.status, transcriptError: message.slice(0, 2000) }).catch((writeErr) =>
        this.log(`answer ${id}: could not record the failure: ${describe(writeErr)}`),
      );
      return outcome.status === "failed" ? { result: "failed", retryInMs: 0 } : { result: "retry", retryInMs: outcome.retryInMs };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  private async download(answer: VideoAnswer, target: string): Promise<void> {
    const token = await this.pb.files.getToken();
    const url = this.pb.files.getURL(answer, answer.file, { token });
    const res = await fetch(url);
    if (!res.ok || !res.body) throw new Error(`downloading ${answer.file} answered ${res.status}`);
    // streamed to disk: recordings go up to 150 MB
    await pipeline(Readable.fromWeb(res.body as import("node:stream/web").ReadableStream), createWriteStream(target));
  }

  /**
   * Makes the answer's recording playable (repair.ts: what a cut left of it up to its last complete webm Cluster or
   * mp4 fragment, remuxed with a duration and a seek index) and stores that file in place of the uploaded one, with
   * its duration and type. Returns the local path of the stored file.
   */
  private async makeSeekable(answer: VideoAnswer, dir: string): Promise<string> {
    const original = join(dir, "original");
    await this.download(answer, original);
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
    await this.pb.collection(COLLECTION).update(answer.id, form);
    return repaired.file;
  }

  private async transcribeAnswer(recording: string, dir: string): Promise<string> {
    if (!(await hasAudio(recording))) return "";
    const wav = join(dir, "audio.wav");
    await extractAudio(recording, wav);
    return this.transcribe(wav);
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

function describe(err: unknown): string {
  if (err instanceof ClientResponseError) return `${err.status} ${err.message} ${JSON.stringify(err.response?.data ?? {})}`;
  return err instanceof Error ? err.message : String(err);
}
