import { useMutation, useQueryClient } from '@tanstack/react-query';

import { toast } from '@/components/toast';
import { showErrorToast } from '@/components/toaster';
import { getErrorMessage } from '@/lib/errors';
import { pb } from '@/lib/pocketbase';
import type { VideoAnswersResponse } from '@/lib/pocketbase-types';

import { patchVideoAnswer, reviewQueries } from './review-candidate';

/**
 * Asks for a failed transcript again: POST /api/screenroom/video-answers/{id}/transcript/retry, for the managers of
 * the answer's job (server/internal/takes/transcript_retry.go). The answer the server sends back (pending, no reason)
 * goes into the cached review, which then waits for the worker's transcript as for any pending one. The toasts are
 * the mutation's own, not the button's: the realtime event of the same write can replace the failed transcript (and
 * its button) before the answer arrives.
 */
export function useRetryTranscript(candidateId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['retry-transcript', candidateId],
    mutationFn: (videoAnswerId: string) =>
      pb.send<VideoAnswersResponse>(`/api/screenroom/video-answers/${encodeURIComponent(videoAnswerId)}/transcript/retry`, {
        method: 'POST',
      }),
    onSuccess: (record) => {
      if (!patchVideoAnswer(queryClient, candidateId, record)) {
        void queryClient.invalidateQueries({ queryKey: reviewQueries.detail(candidateId).queryKey });
      }
      toast.success('The transcript is being made again.');
    },
    onError: (error) => showErrorToast(getErrorMessage(error)),
  });
}
