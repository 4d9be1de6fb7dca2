import { useMutation, useQueryClient } from '@tanstack/react-query';

import { jobQueries } from '@/features/jobs/api/job-queries';
import { pb } from '@/lib/pocketbase';

import { reviewQueries } from './review-candidate';

/**
 * Deletes a candidate with everything of theirs (answers and videos, ratings, comments, share links: PocketBase's
 * cascades). With answers, the server deletes only when told the manager confirmed it (`deleteAnswers`,
 * server/internal/answers).
 */
export function useDeleteCandidate(jobId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ candidateId, deleteAnswers }: { candidateId: string; deleteAnswers: boolean }) =>
      pb.collection('candidates').delete(candidateId, deleteAnswers ? { query: { deleteAnswers: 'true' } } : {}),
    onSuccess: async (_data, { candidateId }) => {
      queryClient.removeQueries({ queryKey: reviewQueries.detail(candidateId).queryKey });
      await queryClient.invalidateQueries({ queryKey: jobQueries.pipeline(jobId) });
    },
  });
}
