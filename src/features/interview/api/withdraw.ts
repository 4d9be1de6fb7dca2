import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ClientResponseError } from 'pocketbase';

import { candidateOptions, pb } from '@/lib/pocketbase';

import { answerUploads } from './answer-uploads';
import { cancelInterviewReads, interviewQueries, withdrawnInterview } from './interview-get';

export type Withdrawal = { answers: number; videos: number };

/**
 * The candidate withdraws and has their answers deleted: POST /api/screenroom/interviews/{key}/withdraw erases them
 * as a manager's erasure does (answers, videos, transcripts, the team's ratings and notes, the invitation), logged as
 * the candidate's act. 200 with what it removed; 404 for an unknown link or one already withdrawn.
 */
export function withdraw(candidateKey: string): Promise<Withdrawal> {
  return pb.send<Withdrawal>(
    `/api/screenroom/interviews/${encodeURIComponent(candidateKey)}/withdraw`,
    candidateOptions(candidateKey, { method: 'POST' }),
  );
}

/** PocketBase's date text for now, as the server writes withdrawnAt. */
function serverNow(): string {
  return new Date().toISOString().replace('T', ' ');
}

/**
 * Withdraws, then forgets what this device keeps of the answers, and every candidate screen says they withdrew
 * (the interview read is replaced by the one the server now answers). `language`: the screens' current language,
 * which the withdrawn page keeps.
 */
export function useWithdraw(candidateKey: string, language: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => withdraw(candidateKey),
    onSuccess: async () => {
      await answerUploads.forgetCandidate(candidateKey);
      // a read from before the withdrawal, arriving after it, would bring the interview back on the screen
      await cancelInterviewReads(queryClient, candidateKey);
      queryClient.setQueryData(interviewQueries.detail(candidateKey).queryKey, withdrawnInterview(serverNow(), language));
    },
    onError: (error) => {
      // withdrawn already (another tab): the read says so, and the screens follow it
      if (error instanceof ClientResponseError && error.status === 404) {
        void queryClient.invalidateQueries({ queryKey: interviewQueries.detail(candidateKey).queryKey });
      }
    },
  });
}
