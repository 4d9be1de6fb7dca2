import { ClientResponseError } from 'pocketbase';
import { useSyncExternalStore } from 'react';

import { createIndexedDbAnswerStore, newRecordId, type PendingAnswer } from '@/lib/answer-store';
import { serverText } from '@/lib/errors';
import { CANDIDATE_ID_HEADER, candidateOptions, pb } from '@/lib/pocketbase';
import { Collections } from '@/lib/pocketbase-types';
import { queryClient } from '@/lib/query-client';
import { UploadError, UploadQueue, type UploadState, type UploadTransport } from '@/lib/upload-queue';

import { interviewQueries } from './interview-get';

type BatchRequest = { method: 'POST'; url: string; body: Record<string, unknown> };

const recordsUrl = (collection: Collections) => `/api/collections/${collection}/records`;

/**
 * The body PocketBase's batch endpoint reads (the SDK's BatchService.send format): `@jsonPayload` holding the
 * requests, and each file as `requests.N.<field>`. The answer and its kind record commit together or not at all.
 */
export function buildAnswerBatch(answer: PendingAnswer): FormData {
  const requests: BatchRequest[] = [
    {
      method: 'POST',
      url: recordsUrl(Collections.Answers),
      body: { id: answer.id, candidate: answer.candidateId, question: answer.questionId },
    },
    answer.kind === 'video'
      ? { method: 'POST', url: recordsUrl(Collections.VideoAnswers), body: { answer: answer.id } }
      : { method: 'POST', url: recordsUrl(Collections.TextAnswers), body: { answer: answer.id, content: answer.content } },
  ];
  const form = new FormData();
  if (answer.kind === 'video') form.append('requests.1.file', answer.file, answer.fileName);
  form.append('@jsonPayload', JSON.stringify({ requests }));
  return form;
}

/** The server's message for a refused batch: the failing sub-request's field error when there is one. */
export function batchErrorMessage(response: unknown): string {
  const body = response as { message?: unknown; data?: { requests?: Record<string, unknown> } } | null;
  const failures = Object.values(body?.data?.requests ?? {}) as {
    response?: { message?: unknown; data?: Record<string, { message?: unknown }> };
  }[];
  for (const failure of failures) {
    const fieldMessage = Object.values(failure.response?.data ?? {}).find((d) => typeof d?.message === 'string');
    if (typeof fieldMessage?.message === 'string') return serverText(fieldMessage.message);
    if (typeof failure.response?.message === 'string') return serverText(failure.response.message);
  }
  return typeof body?.message === 'string' ? serverText(body.message) : 'The upload failed';
}

/** XMLHttpRequest rather than fetch: only it reports upload progress. */
function sendBatch(answer: PendingAnswer, onProgress: (fraction: number) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', pb.buildURL('/api/batch'));
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
        reject(new UploadError(batchErrorMessage(xhr.response), xhr.status, xhr.response));
      }
    };
    xhr.onerror = () => reject(new UploadError('The connection was lost', 0));
    xhr.ontimeout = () => reject(new UploadError('The upload timed out', 0));
    xhr.onabort = () => reject(new UploadError('The upload was interrupted', 0));
    xhr.send(buildAnswerBatch(answer));
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

export const answerTransport: UploadTransport = { send: sendBatch, exists: answerExists };

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

export type NewAnswer =
  | { kind: 'video'; candidateId: string; questionId: string; file: Blob; mimeType: string }
  | { kind: 'text'; candidateId: string; questionId: string; content: string };

/** Saves the answer in IndexedDB, then uploads it in the background. Resolves once it is safely stored. */
export async function submitAnswer(answer: NewAnswer): Promise<void> {
  const base = { id: newRecordId(), candidateId: answer.candidateId, questionId: answer.questionId, createdAt: Date.now() };
  if (answer.kind === 'video') {
    const extension = answer.mimeType === 'video/mp4' ? 'mp4' : 'webm';
    await answerUploads.enqueue({ ...base, kind: 'video', file: answer.file, fileName: `answer.${extension}` });
  } else {
    await answerUploads.enqueue({ ...base, kind: 'text', content: answer.content });
  }
}
