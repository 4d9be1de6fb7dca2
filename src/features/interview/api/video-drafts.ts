import { useEffect, useState } from 'react';

import { newRecordId } from '@/lib/record-id';

import type { DraftTake } from '../upload/answer-store';
import { fileExtensionOf, type Take } from '../upload/media-recorder';
import { TakeStager, type PartTransport, type StagedUpload } from '../upload/take-stager';

import { partTransport } from './answer-transport';
import { answerUploads, recordingChunks } from './answer-uploads';

/** Where the device keeps a take's chunks while it records (answer-uploads.ts recordingChunks). */
export type ChunkKeeper = Pick<typeof recordingChunks, 'save' | 'remove'>;

/**
 * The takes of one question's video answer. A take goes to the server in parts while it is recorded (staged, not an
 * answer). The last finished take is stored on this device as soon as it is recorded (a draft, while the candidate
 * watches it), so submitting it only marks it submitted and sends what is left. A take replaced by a newer one is
 * dropped, here and on the server; a take not submitted (the question left, the tab closed, the browser dead) is
 * kept on both and offered again (kept-takes.ts). A draft is never an answer.
 */
export class VideoDrafts {
  private current: { take: DraftTake; saved: Promise<void>; submitted: boolean; staged: StagedUpload | null } | null = null;
  private recording: TakeStager | null = null;

  constructor(
    private readonly candidateId: string,
    private readonly questionId: string,
    private readonly parts: PartTransport = partTransport,
    private readonly chunks: ChunkKeeper = recordingChunks,
  ) {}

  /**
   * A take starts recording: returns where its chunks go (to the server, as they come). The take shown so far stays
   * submittable until the new one is finished (time may run out first), but the server keeps one staged take per
   * question, so from now on that one would go up whole.
   */
  startTake(): (chunk: Blob, final?: boolean) => void {
    this.withdrawStaging();
    const takeId = newRecordId();
    const { candidateId, questionId } = this;
    // each part is kept on this device too while the take records: a browser dying mid-take leaves it here as well
    const onPart = (offset: number, data: Blob, marks: { ms: number; last: boolean }) =>
      void this.chunks.save({ takeId, candidateId, questionId, offset, data, ms: marks.ms, last: marks.last, createdAt: Date.now() });
    const staged = new TakeStager(takeId, candidateId, questionId, this.parts, { onPart });
    this.recording = staged;
    return (chunk, final) => staged.push(chunk, final);
  }

  /** The take just recorded failed its check at Stop (issue 23): its parts and chunks go, here and on the server. */
  dropRecording(): void {
    if (!this.recording) return;
    void this.chunks.remove(this.recording.takeId);
    this.recording.discard();
    this.recording = null;
  }

  /** A take kept from an earlier visit (kept-takes.ts) is the one shown: it is submitted or replaced like a new one. */
  offer(draft: DraftTake, staged: StagedUpload | null): void {
    this.current = { take: draft, saved: Promise.resolve(), submitted: false, staged };
  }

  /** A take is finished: store it, and drop the one it replaces. */
  keep(take: Take): void {
    // The same take again (a second stop: a double click, or the countdown ending as the candidate stopped)
    if (this.current?.take.file === take.blob) return;
    this.dropCurrent();
    // The take the server has been getting in parts, if it is this one (the same bytes, in the same order).
    const staged = this.recording;
    this.recording = null;
    const recorded = staged?.takeId;
    // withdrawn, it still goes with the answer: its upload then knows the server holds none of it to go on from
    if (staged && staged.size !== take.blob.size) staged.discard();
    const draft: DraftTake = {
      // a take the server started counting keeps its id when its parts are dropped: uploaded whole, it is the same
      // take (the answers route counts no new one), never one more than the question allows
      id: recorded ?? newRecordId(),
      candidateId: this.candidateId,
      questionId: this.questionId,
      createdAt: Date.now(),
      file: take.blob,
      fileName: `answer.${fileExtensionOf(take.mimeType)}`,
      ...(staged ? { durationMs: staged.elapsedMs } : {}),
    };
    const saved = answerUploads.saveDraft(draft);
    this.current = { take: draft, saved, submitted: false, staged };
    // the draft holds the whole take from now on: its chunks go once it is stored
    if (recorded) void saved.then(() => this.chunks.remove(recorded));
  }

  /** Submits the take (stored already, or still being stored when the click came fast), then uploads it. */
  async submit(take: Take): Promise<void> {
    if (this.current?.take.file !== take.blob) this.keep(take);
    const current = this.current!;
    current.submitted = true;
    try {
      // A take the server holds in parts is on this device as its chunks until its copy is stored: its upload does
      // not wait for that copy (issue 20 point 4: writing a 10-minute take's copy took longer than sending the rest).
      if (!current.staged?.usable) await current.saved;
      await answerUploads.enqueue({ ...current.take, kind: 'video' }, current.staged ?? undefined);
    } catch (error) {
      current.submitted = false;
      throw error;
    }
  }

  /** A new take starts: the server keeps one take per question, so the one shown would go up whole from now on. */
  private withdrawStaging(): void {
    if (this.recording) void this.chunks.remove(this.recording.takeId);
    this.recording?.discard();
    this.recording = null;
    // withdrawn, it stays with the take: an upload of it then knows the server holds none of it to go on from
    if (this.current && !this.current.submitted) this.current.staged?.discard();
  }

  /**
   * The answer form is closing: a take not submitted stays, on this device and on the server, to be offered again;
   * so do the parts of one still recording (an interrupted take).
   */
  leave(): void {
    this.current = null;
    this.recording = null;
  }

  private dropCurrent() {
    const previous = this.current;
    this.current = null;
    if (!previous || previous.submitted) return;
    void previous.saved.then(() => answerUploads.discardDraft(previous.take.id));
    void this.chunks.remove(previous.take.id); // a take offered from the chunks this device kept
    previous.staged?.discard();
  }
}

/** One question's VideoDrafts, for as long as the question's screen is shown. */
export function useVideoDrafts(candidateId: string, questionId: string): VideoDrafts {
  const [drafts] = useState(() => new VideoDrafts(candidateId, questionId));
  useEffect(() => () => drafts.leave(), [drafts]);
  return drafts;
}
