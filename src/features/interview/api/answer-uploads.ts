import { useSyncExternalStore } from 'react';

import { queryClient } from '@/lib/query-client';
import { newRecordId } from '@/lib/record-id';

import { createIndexedDbAnswerStore } from '../upload/answer-store';
import type { StagedUpload } from '../upload/take-stager';
import { UploadQueue, type UploadState } from '../upload/upload-queue';

import { answerTransport } from './answer-transport';
import { interviewQueries } from './interview-get';

/** One queue per page: every screen of the interview sees the same uploads. A staged take travels with its answer. */
export const answerUploads = new UploadQueue<StagedUpload>({
  store: createIndexedDbAnswerStore(),
  transport: answerTransport,
  onConfirmed: (answer) => {
    void queryClient.invalidateQueries({ queryKey: interviewQueries.detail(answer.candidateId).queryKey });
  },
});

let resumed: Promise<void> | undefined;
let watching = false;
/**
 * Loads answers a previous visit left behind, once per page, and from then on retries at once when the connection
 * comes back instead of waiting out the backoff.
 */
export function resumeAnswerUploads(): Promise<void> {
  if (!watching && typeof window !== 'undefined') {
    watching = true;
    window.addEventListener('online', () => answerUploads.retryNow());
  }
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
