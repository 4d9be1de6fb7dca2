import { useMutation, useQueryClient, type UseMutationOptions } from '@tanstack/react-query';

import { pb } from '@/lib/pocketbase';
import type { CandidatesResponse } from '@/lib/pocketbase-types';

import { jobQueries } from './job-queries';

export type InviteCandidateInput = {
  jobId: string;
  email: string;
  /** ISO date, or '' for none. */
  deadline?: string;
  extraTime?: '' | '1.5' | '2' | 'unlimited';
  extraTakes?: number;
};

/**
 * Creates the candidate; the server sends the interview e-mail and refuses a second invite (rule 6). The server gives
 * an invite sent without a deadline the job's default one (its response time from now); a manager who cleared the
 * deadline on purpose gets none, so that default is cleared again right away.
 */
export async function inviteCandidate({ jobId, email, deadline, extraTime, extraTakes }: InviteCandidateInput): Promise<CandidatesResponse> {
  const body: Record<string, unknown> = { job: jobId, email };
  if (deadline !== undefined) body.deadline = deadline;
  if (extraTime) body.extraTime = extraTime;
  if (extraTakes) body.extraTakes = extraTakes;
  const candidate = await pb.collection('candidates').create<CandidatesResponse>(body);
  if (deadline === '' && candidate.deadline) {
    return pb.collection('candidates').update<CandidatesResponse>(candidate.id, { deadline: '' });
  }
  return candidate;
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
