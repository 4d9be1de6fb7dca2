import { useSyncExternalStore } from 'react';

import { queryClient } from '@/lib/query-client';
import { newRecordId } from '@/lib/record-id';

import { createIndexedDbAnswerStore, type RecordedChunk } from '../upload/answer-store';
import type { StagedUpload } from '../upload/take-stager';
import { UploadQueue, withRoom, type UploadState } from '../upload/upload-queue';

import { answerTransport } from './answer-transport';
import { interviewQueries } from './interview-get';
import { isClosingProblem } from './refusals';

const store = createIndexedDbAnswerStore();

/** One queue per page: every screen of the interview sees the same uploads. A staged take travels with its answer. */
export const answerUploads = new UploadQueue<StagedUpload>({
  store,
  transport: answerTransport,
  onConfirmed: (answer) => {
    // a take offered from the chunks kept while it recorded (issue 22): the answer holds it now
    if (answer.kind === 'video') void recordingChunks.remove(answer.id);
    if (answer.resentFrom !== undefined) noteResent(answer.candidateId);
    void queryClient.invalidateQueries({ queryKey: interviewQueries.detail(answer.candidateId).queryKey });
  },
});

/** What this device keeps of a take while it is recorded (issue 22). Storage failures only cost that copy. */
export const recordingChunks = {
  save: (chunk: RecordedChunk): Promise<void> => withRoom(store, () => store.putChunk(chunk)).catch((error: unknown) => console.warn('A recorded chunk could not be kept on this device', error)),
  find: (candidateId: string, questionId: string): Promise<RecordedChunk[]> =>
    store.findChunks(candidateId, questionId).catch((error: unknown) => {
      console.warn('The recorded chunks on this device could not be read', error);
      return [];
    }),
  remove: (takeId: string): Promise<void> => store.removeChunks(takeId).catch((error: unknown) => console.warn('Recorded chunks could not be removed', error)),
};

/**
 * An answer refused because the interview closed (deadline, withdrawn) stays on the device as a failed upload; the
 * interview is read again so every screen shows the closed page. Once per answer.
 */
const closedSeen = new Set<string>();
answerUploads.subscribe(() => {
  for (const state of answerUploads.getSnapshot()) {
    if (state.status !== 'failed' || !isClosingProblem(state.error) || closedSeen.has(state.id)) continue;
    closedSeen.add(state.id);
    void queryClient.invalidateQueries({ queryKey: interviewQueries.detail(state.candidateId).queryKey });
  }
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

/**
 * The answers sent again this page load because the server had lost them (lost-answers.ts), once confirmed, by
 * candidate: the candidate is told how many, and only then.
 */
const resentCounts = new Map<string, number>();
const resentListeners = new Set<() => void>();

function noteResent(candidateId: string): void {
  resentCounts.set(candidateId, (resentCounts.get(candidateId) ?? 0) + 1);
  resentListeners.forEach((listener) => listener());
}

function subscribeResent(listener: () => void): () => void {
  resentListeners.add(listener);
  return () => resentListeners.delete(listener);
}

export function useResentCount(candidateId: string): number {
  return useSyncExternalStore(subscribeResent, () => resentCounts.get(candidateId) ?? 0);
}
