import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';

import { showErrorToast } from '@/components/toaster';
import { GENERIC_ERROR_MESSAGE } from '@/lib/errors';
import { pb } from '@/lib/pocketbase';
import type { CandidatesDecisionOptions, CandidatesResponse, UsersResponse } from '@/lib/pocketbase-types';

import { patchCandidate } from './review-candidate';

export type Decision = CandidatesDecisionOptions;
export const DECISIONS: readonly { value: Decision; label: string }[] = [
  { value: 'advance', label: 'Advance' },
  { value: 'hold', label: 'Hold' },
  { value: 'reject', label: 'Reject' },
];

/**
 * Sets ('advance', 'hold', 'reject') or clears ('') the candidate's decision through the server's route, which
 * records who set it and when (POST /api/screenroom/candidates/{id}/decision, managers of the job's company only;
 * the records API refuses decision fields). Nothing is sent to the candidate.
 */
export function useSetDecision(candidateId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['set-decision', candidateId],
    scope: { id: `set-decision:${candidateId}` },
    mutationFn: (decision: Decision | '') =>
      pb.send<CandidatesResponse>(`/api/screenroom/candidates/${encodeURIComponent(candidateId)}/decision`, {
        method: 'POST',
        body: { decision },
      }),
    onSuccess: (candidate) => patchCandidate(queryClient, candidate),
    onError: (error) => {
      console.error(error);
      showErrorToast(GENERIC_ERROR_MESSAGE);
    },
  });
}

/** A fellow manager's name and avatar (who set a decision), by id; fellow managers may read them. */
export const managerQueries = {
  all: () => ['review-managers'] as const,
  detail: (userId: string) =>
    queryOptions({
      queryKey: [...managerQueries.all(), userId] as const,
      queryFn: ({ signal }) =>
        pb.collection('users').getOne<UsersResponse>(userId, { fields: 'id,collectionId,collectionName,firstName,lastName,avatar', signal }),
      staleTime: 5 * 60 * 1000,
    }),
};
