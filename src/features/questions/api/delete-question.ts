import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';

import { jobQueries } from '@/features/jobs/api/job-queries';
import { pb } from '@/lib/pocketbase';
import type { JobsResponse } from '@/lib/pocketbase-types';

import { questionQueries } from './question-queries';

/** What deleting a question would touch: how many answers it has, and the jobs that ask it (with their sizes). */
export type QuestionUsage = {
  answers: number;
  jobs: Pick<JobsResponse, 'id' | 'title' | 'questions'>[];
};

/**
 * Read when the delete dialog opens (issue 16: what deleting takes with it, said plainly), from the server's count
 * (GET /api/screenroom/deletions/questions/{id}, server/internal/answers).
 */
export const questionUsageQuery = (questionId: string) =>
  queryOptions({
    queryKey: [...questionQueries.detail(questionId).queryKey, 'usage'] as const,
    queryFn: ({ signal }) =>
      pb.send<QuestionUsage>(`/api/screenroom/deletions/questions/${encodeURIComponent(questionId)}`, { method: 'GET', signal }),
    staleTime: 0,
  });

/**
 * Deletes a question nobody answered (its kind record goes with it, and the jobs that asked it keep their other
 * questions). The server refuses one with answers: those are archived.
 */
export function useDeleteQuestion() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (questionId: string) => pb.collection('questions').delete(questionId),
    onSuccess: async (_data, questionId) => {
      queryClient.removeQueries({ queryKey: questionQueries.detail(questionId).queryKey });
      // the jobs that asked it changed too
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: questionQueries.lists() }),
        queryClient.invalidateQueries({ queryKey: jobQueries.all() }),
      ]);
    },
  });
}

/** Archives (or brings back) a question: hidden from the list and the question picker, still in every review. */
export function useArchiveQuestion() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ questionId, archived }: { questionId: string; archived: boolean }) =>
      pb.collection('questions').update(questionId, { archived }),
    onSuccess: async (_data, { questionId }) => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: questionQueries.detail(questionId).queryKey }),
        queryClient.invalidateQueries({ queryKey: questionQueries.lists() }),
      ]);
    },
  });
}
