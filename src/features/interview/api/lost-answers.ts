import { ClientResponseError } from 'pocketbase';

import { candidateOptions, pb } from '@/lib/pocketbase';

import { resendLostAnswers, type AskMissing } from '../upload/lost-answers';

import { timeoutSignal } from './answer-transport';
import { answerUploads } from './answer-uploads';
import type { Interview } from './interview-get';

/** The server's answer to which kept answers it lacks (server/internal/interview/kept_answers.go). */
export const keptAnswersRoute = (candidateKey: string) => `/api/screenroom/interviews/${encodeURIComponent(candidateKey)}/kept-answers`;

/** Asked while the page loads: a server slow to say must not hold the screens. */
const ASK_TIMEOUT_MS = 5000;

const askMissing: AskMissing = async (candidateId, kept) => {
  const reply = await pb.send<{ missing?: unknown }>(
    keptAnswersRoute(candidateId),
    candidateOptions(candidateId, { method: 'POST', body: { answers: kept }, requestKey: null, signal: timeoutSignal(ASK_TIMEOUT_MS) }),
  );
  return Array.isArray(reply.missing) ? reply.missing.filter((id): id is string => typeof id === 'string') : [];
};

const asked = new Set<string>();

/**
 * Once a page load: the answers this device kept that the server lost are queued again (the screens then count them
 * as on their way). Any failure only costs the check: the copies stay kept until their day is over. A link that is
 * no longer valid (the candidate was erased) takes this device's copies with it.
 */
export async function resendLostAnswersOnce(candidateId: string, interview: Interview): Promise<void> {
  if (asked.has(candidateId)) return;
  asked.add(candidateId);
  try {
    if (interview.withdrawnAt) {
      await answerUploads.forgetCandidate(candidateId);
      return;
    }
    await resendLostAnswers(answerUploads, candidateId, interview, askMissing);
  } catch (error) {
    if (error instanceof ClientResponseError && error.status === 404) {
      await answerUploads.forgetCandidate(candidateId);
      return;
    }
    console.warn('The answers kept on this device could not be checked with the server', error);
  }
}
