import { useMutation, useQueryClient } from '@tanstack/react-query';

import { pb } from '@/lib/pocketbase';

import { jobQueries } from './job-queries';

/**
 * Closes or reopens a job (issue 19: POST /api/screenroom/jobs/{id}/close | reopen, server/internal/jobs).
 * Closing deletes nothing: the candidates' links show a closed page and no one new is invited until it is reopened.
 */
export function useSetJobClosed() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ jobId, closed }: { jobId: string; closed: boolean }) =>
      pb.send<{ closedAt: string }>(`/api/screenroom/jobs/${encodeURIComponent(jobId)}/${closed ? 'close' : 'reopen'}`, {
        method: 'POST',
      }),
    onSuccess: async (_data, { jobId }) => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: jobQueries.detail(jobId).queryKey }),
        queryClient.invalidateQueries({ queryKey: jobQueries.lists() }),
      ]);
    },
  });
}
