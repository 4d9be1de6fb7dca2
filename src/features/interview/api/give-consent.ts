import { useMutation, useQueryClient } from '@tanstack/react-query';

import { candidateOptions, pb } from '@/lib/pocketbase';

import type { MessageKey } from '../i18n/message-keys';

import { cancelInterviewReads, interviewQueries, type Interview } from './interview-get';
import { CLOSING_CODES, refusalCode } from './refusals';

/**
 * The candidate ticked 'I agree' and started: POST /api/screenroom/interviews/{key}/consent (server/internal/interview) stores
 * when, once (a second call keeps the first time). The server refuses answers before it.
 */
export function giveConsent(candidateKey: string): Promise<{ consentedAt: string }> {
  return pb.send<{ consentedAt: string }>(
    `/api/screenroom/interviews/${encodeURIComponent(candidateKey)}/consent`,
    candidateOptions(candidateKey, { method: 'POST' }),
  );
}

export function useGiveConsent(candidateKey: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => giveConsent(candidateKey),
    onSuccess: async ({ consentedAt }) => {
      // A read of the interview still on its way (the screens read it again on mount and on focus) was answered
      // before the consent was stored: arriving after this, it would say 'not agreed' and send the candidate back to
      // the start page. Cancelled first (awaited: a cancelled read restores the data it started from), then the
      // consent is written in; the page goes on only after (the caller's onSuccess).
      await cancelInterviewReads(queryClient, candidateKey);
      queryClient.setQueryData(interviewQueries.detail(candidateKey).queryKey, (old: Interview | undefined) =>
        old ? { ...old, consentedAt } : old,
      );
    },
    onError: (error) => {
      // the interview closed meanwhile: read it again, and the closed page replaces the start screen
      const code = refusalCode(error);
      if (code && CLOSING_CODES.includes(code)) void queryClient.invalidateQueries({ queryKey: interviewQueries.detail(candidateKey).queryKey });
    },
  });
}

/**
 * The server's refusal of an answer or a part before consent (403, ConsentRequired in
 * server/internal/platform/records.go).
 */
export const CONSENT_REQUIRED_SERVER = 'Please agree to the terms on the start page before answering.';
/** The candidate's own words for it (in English 'Please agree to the terms on the start page before you answer.'). */
export const CONSENT_REQUIRED_PROBLEM = 'upload.problem.consentRequired' satisfies MessageKey;

export function isConsentRefusal(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { status, response, message } = error as { status?: number; response?: { message?: unknown }; message?: unknown };
  const text = typeof response?.message === 'string' ? response.message : typeof message === 'string' ? message : '';
  return status === 403 && text.trim().replace(/\.$/, '') === CONSENT_REQUIRED_SERVER.replace(/\.$/, '');
}
