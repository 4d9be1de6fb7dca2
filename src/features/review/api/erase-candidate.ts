import { useMutation, useQueryClient } from '@tanstack/react-query';

import { auditLogQueries } from '@/features/audit-log/api/audit-log-queries';
import { jobQueries } from '@/features/jobs/api/job-queries';
import { pb } from '@/lib/pocketbase';

import { reviewQueries } from './review-candidate';

/**
 * Erases a candidate on request (issue 19, server/internal/lifecycle/erasure.go): everything of theirs, from every
 * store, files included, whether or not they answered; the server writes the audit entry.
 */
export function useEraseCandidate(jobId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (candidateId: string) =>
      pb.send<{ answers: number; videos: number }>(`/api/screenroom/candidates/${encodeURIComponent(candidateId)}/erase`, {
        method: 'POST',
      }),
    onSuccess: async (_data, candidateId) => {
      queryClient.removeQueries({ queryKey: reviewQueries.detail(candidateId).queryKey });
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: jobQueries.pipeline(jobId) }),
        queryClient.invalidateQueries({ queryKey: auditLogQueries.all() }),
      ]);
    },
  });
}
