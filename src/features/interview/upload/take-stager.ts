import { isStorageRefusal, isTransient, retryDelayAfter } from './upload-queue';

/**
 * Sends a video take to the server while it is being recorded, one MediaRecorder chunk at a time ("staging"), so
 * that submitting it leaves only the last chunk and a small request to send (issue 8: stop → confirmed close to a
 * plain upload; and a weak connection has the whole recording time to move the bytes). Shared code: the transport is
 * injected.
 *
 * Staged parts are not an answer: the server keeps them aside until the answer is submitted with the take's id, and
 * drops them if it never is. The local copy (IndexedDB) stays the source of truth: when staging cannot finish (a
 * refused part, a reload that forgot which parts arrived), the whole file is uploaded the usual way.
 */

/** What the device says of the take with a part: its length recorded so far, and whether the part ends it. */
export type PartMarks = { readonly ms: number; readonly last: boolean };

export type PartTransport = {
  /** Stores one chunk at its byte offset; rejects with an UploadError. Repeating a part replaces it. */
  put: (take: StagedTakeRef, offset: number, data: Blob, marks: PartMarks) => Promise<void>;
  /** Drops the take's parts on the server (best effort). */
  discard: (take: StagedTakeRef) => Promise<void>;
};

export type StagedTakeRef = { readonly takeId: string; readonly candidateId: string; readonly questionId: string };

/** A take the server holds in parts, as the upload of its answer sees it (a TakeStager, or a take kept after a crash). */
export interface StagedUpload {
  readonly takeId: string;
  /** The take's bytes. */
  readonly size: number;
  /** Whether the server may still get (or has) this take in parts. */
  readonly usable: boolean;
  /** Sends what the server misses: true once it holds every part, false when it refused one for good. */
  flush(onProgress?: (fraction: number) => void): Promise<boolean>;
  /** The take is not needed any more: its parts are withdrawn on the server. */
  discard(): void;
}

type Part = { readonly offset: number; readonly data: Blob; readonly marks: PartMarks; confirmed: boolean };

/**
 * Parts are at most this big. A recorder's chunk is about a second (~160 KB), but browsers hand over far bigger ones
 * after a pause (a locked phone, a sleeping tab); a part this size still gets through a slow connection (140 kbit/s)
 * before its timeout, and a failure costs little to send again. Smaller parts cost a request (and a server
 * transaction) each: at 1 MB the last second of a 16 Mbit/s take took two, and the submit measurably longer.
 */
export const PART_MAX_BYTES = 2 * 1024 * 1024;

/** A part that fails on the way (no answer, a server error) is tried again after these delays before giving up. */
export const PART_RETRY_DELAYS_MS: readonly number[] = [1000, 2000];

type Options = {
  retryDelaysMs?: readonly number[];
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  /** Each part as it is pushed (the device keeps a copy while the take records). */
  onPart?: (offset: number, data: Blob, marks: PartMarks) => void;
};

export class TakeStager implements StagedTakeRef, StagedUpload {
  private readonly parts: Part[] = [];
  private pushed = 0;
  private running: Promise<void> | null = null;
  /** The server refused a part for good (no access, too big): the take goes up whole instead. */
  private refused = false;
  private discarded = false;
  /** The server could not store a part and asked for a pause: new chunks wait until then (flush sends them). */
  private pausedUntil = 0;
  /** Who hears about the progress of the parts (the answer's upload, once it is submitted). */
  private onProgress: ((fraction: number) => void) | undefined;
  private readonly retryDelaysMs: readonly number[];
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly now: () => number;
  private readonly startedAt: number;
  private readonly onPart: Options['onPart'];

  constructor(
    readonly takeId: string,
    readonly candidateId: string,
    readonly questionId: string,
    private readonly transport: PartTransport,
    options: Options = {},
  ) {
    this.retryDelaysMs = options.retryDelaysMs ?? PART_RETRY_DELAYS_MS;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.now = options.now ?? Date.now;
    this.startedAt = this.now();
    this.onPart = options.onPart;
  }

  /**
   * A take recorded on an earlier visit, from the parts this device kept: the server already holds the first
   * `serverBytes` of it (those parts are not sent again), flush() sends the rest.
   */
  restore(parts: readonly { offset: number; data: Blob; marks: PartMarks }[], serverBytes: number): void {
    for (const part of parts) {
      if (part.offset !== this.pushed) break; // a gap: what follows is not part of the take
      this.parts.push({ ...part, confirmed: part.offset + part.data.size <= serverBytes });
      this.pushed += part.data.size;
    }
  }

  /** How long the take has been recording (its length once it is finished). */
  get elapsedMs(): number {
    return Math.max(0, this.now() - this.startedAt);
  }

  /** Bytes recorded so far (the take's size once recording has stopped). */
  get size(): number {
    return this.pushed;
  }

  /** Whether the server may still get this take in parts. */
  get usable(): boolean {
    return !this.refused && !this.discarded;
  }

  /**
   * A new chunk of the recording: sent in order behind the earlier ones, cut into parts of at most PART_MAX_BYTES.
   * A part that still fails after its retries waits for the next chunk (or the submit); after the server could not
   * store one (507, 503), new chunks wait out the pause it asked for. `final`: the chunk ends the
   * take ('Stop Recording'); the server then knows the take was finished, not cut off (an empty final chunk is sent
   * as an empty part for that). `ms`: the length recorded up to the end of the chunk, when not now's (a stored take
   * sent again).
   */
  push(data: Blob, final = false, ms = this.elapsedMs): void {
    // an empty final chunk only marks the end of a take that has bytes: a take of none never reaches the server
    if (!this.usable || (data.size === 0 && (!final || this.pushed === 0))) return;
    for (let start = 0; start < data.size || (start === 0 && final); start += PART_MAX_BYTES) {
      const part = data.size <= PART_MAX_BYTES ? data : data.slice(start, Math.min(start + PART_MAX_BYTES, data.size));
      const last = final && start + PART_MAX_BYTES >= data.size;
      this.parts.push({ offset: this.pushed, data: part, marks: { ms, last }, confirmed: false });
      this.onPart?.(this.pushed, part, { ms, last });
      this.pushed += part.size;
      if (part.size === 0) break;
    }
    if (this.now() < this.pausedUntil) return;
    this.run().catch(() => {
      // Sent again with the next chunk, or by flush() when the answer is submitted.
    });
  }

  /**
   * Sends every part the server does not have yet. Resolves true once all of them are stored, false when the server
   * refused one for good (upload the whole file instead); rejects with the transient error of a failed part (the
   * caller retries later, and only the missing parts go again).
   */
  async flush(onProgress?: (fraction: number) => void): Promise<boolean> {
    // The parts still on their way report to the submitted answer from now on.
    this.onProgress = onProgress;
    this.report();
    if (this.running) await this.running.catch(() => undefined);
    if (!this.usable) return false;
    await this.run();
    return this.usable;
  }

  /** The take is not needed any more (replaced, abandoned, or confirmed as an answer): forget it everywhere. */
  discard(): void {
    if (this.discarded) return;
    this.discarded = true;
    const drop = () => this.transport.discard(this).catch(() => undefined);
    void (this.running ? this.running.catch(() => undefined).then(drop) : drop());
  }

  private run(): Promise<void> {
    this.running ??= this.sendMissing().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private report() {
    this.onProgress?.(this.pushed ? this.confirmedBytes() / this.pushed : 1);
  }

  private async sendMissing() {
    for (let part = this.nextMissing(); part && this.usable; part = this.nextMissing()) {
      if (!(await this.sendPart(part))) return;
      part.confirmed = true;
      this.report();
    }
  }

  /** Sends one part, trying again after a transient failure; false when the server refused it for good. */
  private async sendPart(part: Part): Promise<boolean> {
    for (let attempt = 0; ; attempt++) {
      try {
        await this.transport.put(this, part.offset, part.data, part.marks);
        return true;
      } catch (error) {
        if (!isTransient(error)) {
          this.refused = true;
          return false;
        }
        if (isStorageRefusal(error)) {
          // No space on the server: trying again at once cannot help. The caller (the answer's upload, whose wait
          // honours the server's Retry-After, and whose candidate is told) tries again later.
          this.pausedUntil = this.now() + retryDelayAfter(error, 1);
          throw error;
        }
        const delay = this.retryDelaysMs[attempt];
        if (delay === undefined || !this.usable) throw error;
        await this.sleep(delay);
        if (!this.usable) return false;
      }
    }
  }

  private nextMissing(): Part | undefined {
    return this.parts.find((part) => !part.confirmed);
  }

  private confirmedBytes(): number {
    return this.parts.reduce((sum, part) => sum + (part.confirmed ? part.data.size : 0), 0);
  }
}
