import { isTransient } from './upload-queue';

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

export type PartTransport = {
  /** Stores one chunk at its byte offset; rejects with an UploadError. Repeating a part replaces it. */
  put: (take: StagedTakeRef, offset: number, data: Blob) => Promise<void>;
  /** Drops the take's parts on the server (best effort). */
  discard: (take: StagedTakeRef) => Promise<void>;
};

export type StagedTakeRef = { readonly takeId: string; readonly candidateId: string; readonly questionId: string };

type Part = { readonly offset: number; readonly data: Blob; confirmed: boolean };

export class TakeStager implements StagedTakeRef {
  private readonly parts: Part[] = [];
  private pushed = 0;
  private running: Promise<void> | null = null;
  /** The server refused a part for good (no access, too big): the take goes up whole instead. */
  private refused = false;
  private discarded = false;

  constructor(
    readonly takeId: string,
    readonly candidateId: string,
    readonly questionId: string,
    private readonly transport: PartTransport,
  ) {}

  /** Bytes recorded so far (the take's size once recording has stopped). */
  get size(): number {
    return this.pushed;
  }

  /** Whether the server may still get this take in parts. */
  get usable(): boolean {
    return !this.refused && !this.discarded;
  }

  /** A new chunk of the recording: sent in order behind the earlier ones. A failure waits for the next chunk. */
  push(data: Blob): void {
    if (!this.usable || data.size === 0) return;
    this.parts.push({ offset: this.pushed, data, confirmed: false });
    this.pushed += data.size;
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
    if (this.running) await this.running.catch(() => undefined);
    if (!this.usable) return false;
    await this.run(onProgress);
    return this.usable;
  }

  /** The take is not needed any more (replaced, abandoned, or confirmed as an answer): forget it everywhere. */
  discard(): void {
    if (this.discarded) return;
    this.discarded = true;
    const drop = () => this.transport.discard(this).catch(() => undefined);
    void (this.running ? this.running.catch(() => undefined).then(drop) : drop());
  }

  private run(onProgress?: (fraction: number) => void): Promise<void> {
    this.running ??= this.sendMissing(onProgress).finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async sendMissing(onProgress?: (fraction: number) => void) {
    const report = () => onProgress?.(this.pushed ? this.confirmedBytes() / this.pushed : 1);
    report();
    for (let part = this.nextMissing(); part && this.usable; part = this.nextMissing()) {
      try {
        await this.transport.put(this, part.offset, part.data);
      } catch (error) {
        if (isTransient(error)) throw error;
        this.refused = true;
        return;
      }
      part.confirmed = true;
      report();
    }
  }

  private nextMissing(): Part | undefined {
    return this.parts.find((part) => !part.confirmed);
  }

  private confirmedBytes(): number {
    return this.parts.reduce((sum, part) => sum + (part.confirmed ? part.data.size : 0), 0);
  }
}
