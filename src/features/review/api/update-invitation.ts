import { useMutation, useQueryClient } from '@tanstack/react-query';

import { jobQueries } from '@/features/jobs/api/job-queries';
import { pb } from '@/lib/pocketbase';
import type { CandidatesResponse } from '@/lib/pocketbase-types';

import { patchCandidate } from './review-candidate';

/**
 * What a manager changes of a candidate's invitation (issue 17 points 5 to 7), through the records API, whose update
 * rule lets the job's company's managers write these fields: the deadline (moved, which must lie in the future, or
 * cleared), the withdrawal (the server stamps withdrawnAt), and the extra time and takes granted.
 */
export type InvitationChange = Partial<{
  /** ISO date, or '' for none. */
  deadline: string;
  withdrawn: boolean;
  extraTime: '' | '1.5' | '2' | 'unlimited';
  extraTakes: number;
}>;

export function useUpdateInvitation(candidateId: string, jobId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['update-invitation', candidateId],
    scope: { id: `update-invitation:${candidateId}` },
    mutationFn: (change: InvitationChange) => pb.collection('candidates').update<CandidatesResponse>(candidateId, change),
    onSuccess: async (candidate) => {
      patchCandidate(queryClient, candidate);
      // the pipeline's rows show the deadline and the withdrawal
      await queryClient.invalidateQueries({ queryKey: jobQueries.pipeline(jobId) });
    },
  });
}
