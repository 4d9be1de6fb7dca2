import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';

import { pb } from '@/lib/pocketbase';

import { jobQueries } from './job-queries';

/** What deleting a job takes with it: its candidates, their answers, and how many of those are videos. */
export type JobUsage = { candidates: number; answers: number; videos: number };

/**
 * Read when the delete dialog opens (issue 16: what deleting takes with it, said plainly), from the server's count
 * (GET /api/screenroom/deletions/jobs/{id}, server/internal/answers).
 */
export const jobUsageQuery = (jobId: string) =>
  queryOptions({
    queryKey: [...jobQueries.detail(jobId).queryKey, 'usage'] as const,
    queryFn: ({ signal }) => pb.send<JobUsage>(`/api/screenroom/deletions/jobs/${encodeURIComponent(jobId)}`, { method: 'GET', signal }),
    staleTime: 0,
  });

/**
 * Deletes a job with its candidates and everything of theirs. With answers, the server deletes only when told the
 * manager confirmed it (`deleteAnswers`, server/internal/answers).
 */
export function useDeleteJob() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ jobId, deleteAnswers }: { jobId: string; deleteAnswers: boolean }) =>
      pb.collection('jobs').delete(jobId, deleteAnswers ? { query: { deleteAnswers: 'true' } } : {}),
    onSuccess: async (_data, { jobId }) => {
      queryClient.removeQueries({ queryKey: jobQueries.detail(jobId).queryKey });
      queryClient.removeQueries({ queryKey: jobQueries.pipeline(jobId) });
      await queryClient.invalidateQueries({ queryKey: jobQueries.lists() });
    },
  });
}

/** Archives (or brings back) a job: hidden from the jobs list; its candidates and their reviews stay as they are. */
export function useArchiveJob() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ jobId, archived }: { jobId: string; archived: boolean }) => pb.collection('jobs').update(jobId, { archived }),
    onSuccess: async (_data, { jobId }) => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: jobQueries.detail(jobId).queryKey }),
        queryClient.invalidateQueries({ queryKey: jobQueries.lists() }),
      ]);
    },
  });
}
