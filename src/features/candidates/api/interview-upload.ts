import { ClientResponseError } from 'pocketbase';
import { useEffect, useState, useSyncExternalStore } from 'react';

import { createIndexedDbAnswerStore, newRecordId, type DraftTake, type PendingAnswer } from '@/lib/answer-store';
import { serverText } from '@/lib/errors';
import { fileExtensionOf, type Take } from '@/lib/media-recorder';
import { CANDIDATE_ID_HEADER, candidateOptions, pb } from '@/lib/pocketbase';
import { Collections } from '@/lib/pocketbase-types';
import { queryClient } from '@/lib/query-client';
import { UploadError, UploadQueue, type UploadState, type UploadTransport } from '@/lib/upload-queue';

import { interviewQueries } from './interview-get';

/** The server's one-request answer route (pocketbase/pb_hooks/answers.pb.js): the answer and its kind record together. */
export const ANSWERS_ROUTE = '/api/screenroom/answers';

/** The body of ANSWERS_ROUTE: the answer with its client-made id, and its file or its text. */
export function buildAnswerForm(answer: PendingAnswer): FormData {
  const form = new FormData();
  form.append('id', answer.id);
  form.append('candidate', answer.candidateId);
  form.append('question', answer.questionId);
  if (answer.kind === 'video') form.append('file', answer.file, answer.fileName);
  else form.append('content', answer.content);
  return form;
}

/** The server's message for a refused answer: a field's message when there is one (the form's), else the top one. */
export function answerErrorMessage(response: unknown): string {
  const body = response as { message?: unknown; data?: Record<string, { message?: unknown } | undefined> } | null;
  const fieldMessage = Object.values(body?.data ?? {}).find((d) => typeof d?.message === 'string');
  if (typeof fieldMessage?.message === 'string') return serverText(fieldMessage.message);
  return typeof body?.message === 'string' ? serverText(body.message) : 'The upload failed';
}

/** XMLHttpRequest rather than fetch: only it reports upload progress. */
function sendAnswer(answer: PendingAnswer, onProgress: (fraction: number) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', pb.buildURL(ANSWERS_ROUTE));
    xhr.setRequestHeader(CANDIDATE_ID_HEADER, answer.candidateId);
    xhr.setRequestHeader('Accept-Language', 'en-US');
    xhr.responseType = 'json';
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(1);
        resolve();
      } else {
        reject(new UploadError(answerErrorMessage(xhr.response), xhr.status, xhr.response));
      }
    };
    xhr.onerror = () => reject(new UploadError('The connection was lost', 0));
    xhr.ontimeout = () => reject(new UploadError('The upload timed out', 0));
    xhr.onabort = () => reject(new UploadError('The upload was interrupted', 0));
    xhr.send(buildAnswerForm(answer));
  });
}

async function answerExists(answer: PendingAnswer): Promise<boolean> {
  try {
    await pb.collection(Collections.Answers).getOne(answer.id, candidateOptions(answer.candidateId));
    return true;
  } catch (error) {
    if (error instanceof ClientResponseError && error.status === 404) return false;
    throw new UploadError('The connection was lost', error instanceof ClientResponseError ? error.status : 0);
  }
}

export const answerTransport: UploadTransport = { send: sendAnswer, exists: answerExists };

/** One queue per page: every screen of the interview sees the same uploads. */
export const answerUploads = new UploadQueue({
  store: createIndexedDbAnswerStore(),
  transport: answerTransport,
  onConfirmed: (answer) => {
    void queryClient.invalidateQueries({ queryKey: interviewQueries.detail(answer.candidateId).queryKey });
  },
});

if (typeof window !== 'undefined') {
  // A connection that comes back retries at once instead of waiting out the backoff.
  window.addEventListener('online', () => answerUploads.retryNow());
}

let resumed: Promise<void> | undefined;
/** Loads answers a previous visit left behind, once per page. */
export function resumeAnswerUploads(): Promise<void> {
  resumed ??= answerUploads.resume().catch(() => {
    resumed = undefined;
  });
  return resumed;
}

export function useAnswerUploads(candidateId: string): readonly UploadState[] {
  const all = useSyncExternalStore(answerUploads.subscribe, answerUploads.getSnapshot);
  return all.filter((state) => state.candidateId === candidateId);
}

/** Saves a text answer in IndexedDB, then uploads it in the background. Resolves once it is safely stored. */
export async function submitTextAnswer(answer: { candidateId: string; questionId: string; content: string }): Promise<void> {
  const { candidateId, questionId, content } = answer;
  await answerUploads.enqueue({ id: newRecordId(), candidateId, questionId, createdAt: Date.now(), kind: 'text', content });
}

/**
 * The takes of one question's video answer. The last finished take is stored on this device as soon as it is
 * recorded (a draft, while the candidate watches it), so submitting it only marks it submitted and starts the
 * upload. A replaced take and the take of a question left unsubmitted are dropped; a draft is never uploaded.
 */
export class VideoDrafts {
  private current: { take: DraftTake; saved: Promise<void>; submitted: boolean } | null = null;

  constructor(
    private readonly candidateId: string,
    private readonly questionId: string,
  ) {}

  /** A take is finished: store it, and drop the one it replaces. */
  keep(take: Take): void {
    this.dropCurrent();
    const draft: DraftTake = {
      id: newRecordId(),
      candidateId: this.candidateId,
      questionId: this.questionId,
      createdAt: Date.now(),
      file: take.blob,
      fileName: `answer.${fileExtensionOf(take.mimeType)}`,
    };
    this.current = { take: draft, saved: answerUploads.saveDraft(draft), submitted: false };
  }

  /** Submits the take (stored already, or still being stored when the click came fast), then uploads it. */
  async submit(take: Take): Promise<void> {
    if (this.current?.take.file !== take.blob) this.keep(take);
    const current = this.current!;
    current.submitted = true;
    try {
      await current.saved;
      await answerUploads.enqueue({ ...current.take, kind: 'video' });
    } catch (error) {
      current.submitted = false;
      throw error;
    }
  }

  /** The answer form is closing: a take that was not submitted goes. */
  leave(): void {
    this.dropCurrent();
  }

  private dropCurrent() {
    const previous = this.current;
    this.current = null;
    if (previous && !previous.submitted) void previous.saved.then(() => answerUploads.discardDraft(previous.take.id));
  }
}

/** One question's VideoDrafts, dropping an unsubmitted take when the question's screen goes away. */
export function useVideoDrafts(candidateId: string, questionId: string): VideoDrafts {
  const [drafts] = useState(() => new VideoDrafts(candidateId, questionId));
  useEffect(() => () => drafts.leave(), [drafts]);
  return drafts;
}
