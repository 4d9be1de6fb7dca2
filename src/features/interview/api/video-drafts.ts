import { useEffect, useState } from 'react';

import { newRecordId } from '@/lib/record-id';

import type { DraftTake } from '../upload/answer-store';
import { fileExtensionOf, type Take } from '../upload/media-recorder';
import { TakeStager, type PartTransport } from '../upload/take-stager';

import { partTransport } from './answer-transport';
import { answerUploads } from './answer-uploads';

/**
 * The takes of one question's video answer. A take goes to the server in parts while it is recorded (staged, not an
 * answer). The last finished take is stored on this device as soon as it is recorded (a draft, while the candidate
 * watches it), so submitting it only marks it submitted and sends what is left. A replaced take and the take of a
 * question left unsubmitted are dropped, here and on the server; a draft is never an answer.
 */
export class VideoDrafts {
  private current: { take: DraftTake; saved: Promise<void>; submitted: boolean; staged: TakeStager | null } | null = null;
  private recording: TakeStager | null = null;

  constructor(
    private readonly candidateId: string,
    private readonly questionId: string,
    private readonly parts: PartTransport = partTransport,
  ) {}

  /**
   * A take starts recording: returns where its chunks go (to the server, as they come). The take shown so far stays
   * submittable until the new one is finished (time may run out first), but the server keeps one staged take per
   * question, so from now on that one would go up whole.
   */
  startTake(): (chunk: Blob) => void {
    this.withdrawStaging();
    const staged = new TakeStager(newRecordId(), this.candidateId, this.questionId, this.parts);
    this.recording = staged;
    return (chunk) => staged.push(chunk);
  }

  /** A take is finished: store it, and drop the one it replaces. */
  keep(take: Take): void {
    // The same take again (a second stop: a double click, or the countdown ending as the candidate stopped)
    if (this.current?.take.file === take.blob) return;
    this.dropCurrent();
    // The take the server has been getting in parts, if it is this one (the same bytes, in the same order).
    let staged = this.recording;
    this.recording = null;
    if (staged && staged.size !== take.blob.size) {
      staged.discard();
      staged = null;
    }
    const draft: DraftTake = {
      id: staged?.takeId ?? newRecordId(),
      candidateId: this.candidateId,
      questionId: this.questionId,
      createdAt: Date.now(),
      file: take.blob,
      fileName: `answer.${fileExtensionOf(take.mimeType)}`,
    };
    this.current = { take: draft, saved: answerUploads.saveDraft(draft), submitted: false, staged };
  }

  /** Submits the take (stored already, or still being stored when the click came fast), then uploads it. */
  async submit(take: Take): Promise<void> {
    if (this.current?.take.file !== take.blob) this.keep(take);
    const current = this.current!;
    current.submitted = true;
    try {
      await current.saved;
      await answerUploads.enqueue({ ...current.take, kind: 'video' }, current.staged ?? undefined);
    } catch (error) {
      current.submitted = false;
      throw error;
    }
  }

  /**
   * The page is going away: the server drops the parts of what was not submitted. The draft stays on this device
   * (another tab may show it); if this page comes back (back/forward cache), submitting it sends the whole file.
   */
  withdrawStaging(): void {
    this.recording?.discard();
    this.recording = null;
    if (this.current && !this.current.submitted) {
      this.current.staged?.discard();
      this.current.staged = null;
    }
  }

  /** The answer form is closing: a take that was not submitted goes, and so does one still recording. */
  leave(): void {
    this.dropCurrent();
    this.recording?.discard();
    this.recording = null;
  }

  private dropCurrent() {
    const previous = this.current;
    this.current = null;
    if (!previous || previous.submitted) return;
    void previous.saved.then(() => answerUploads.discardDraft(previous.take.id));
    previous.staged?.discard();
  }
}

/** One question's VideoDrafts, dropping an unsubmitted take when the question's screen goes away. */
export function useVideoDrafts(candidateId: string, questionId: string): VideoDrafts {
  const [drafts] = useState(() => new VideoDrafts(candidateId, questionId));
  useEffect(() => () => drafts.leave(), [drafts]);
  useEffect(() => {
    // A closed tab's unsubmitted recording does not stay on the server until the cleanup a day later.
    const onPageHide = () => drafts.withdrawStaging();
    window.addEventListener('pagehide', onPageHide);
    return () => window.removeEventListener('pagehide', onPageHide);
  }, [drafts]);
  return drafts;
}
