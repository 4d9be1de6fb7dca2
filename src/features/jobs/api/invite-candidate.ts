import { useMutation, useQueryClient, type UseMutationOptions } from '@tanstack/react-query';

import { pb } from '@/lib/pocketbase';
import type { CandidatesResponse } from '@/lib/pocketbase-types';

import { jobQueries } from './job-queries';

export type InviteCandidateInput = { jobId: string; email: string };

/** Creates the candidate; the server sends the interview e-mail and refuses a second invite (rule 6). */
export function inviteCandidate({ jobId, email }: InviteCandidateInput): Promise<CandidatesResponse> {
  return pb.collection('candidates').create<CandidatesResponse>({ job: jobId, email });
}

type Options = Omit<UseMutationOptions<CandidatesResponse, Error, InviteCandidateInput>, 'mutationFn'>;

export function useInviteCandidate(options: Options = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: inviteCandidate,
    onSuccess: async (candidate, input, ...rest) => {
      // The new candidate's place in the pipeline depends on its order, filter and page, and the counts change:
      // the server answers both again.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: jobQueries.pipeline(input.jobId) }),
        queryClient.invalidateQueries({ queryKey: jobQueries.detail(input.jobId).queryKey }),
      ]);
      await options.onSuccess?.(candidate, input, ...rest);
    },
  });
}
