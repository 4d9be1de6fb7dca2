import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';

import { pb } from '@/lib/pocketbase';
import type { VideoAnswersResponse } from '@/lib/pocketbase-types';

import { patchVideoAnswer, reviewQueries } from './review-candidate';

/**
 * Keeps a candidate's review live: the media worker's writes to the candidate's video answers (transcript,
 * seekable file, duration) arrive over PocketBase realtime and go straight into the cached review; an answer
 * the review does not know yet, or a new answer of any kind (the candidate is still answering), refetches it.
 *
 * @returns whether the subscription is up; when it is not (realtime blocked), callers fall back to polling.
 */
export function useReviewAnswerUpdates(candidateId: string): boolean {
  const queryClient = useQueryClient();
  const [live, setLive] = useState(false);

  useEffect(() => {
    let cancelled = false;
    const stops: (() => Promise<void>)[] = [];
    const refetch = () => void queryClient.invalidateQueries({ queryKey: reviewQueries.detail(candidateId).queryKey });

    Promise.all([
      pb.collection('video_answers').subscribe<VideoAnswersResponse>(
        '*',
        (event) => {
          if (!patchVideoAnswer(queryClient, candidateId, event.record)) refetch();
        },
        { filter: pb.filter('answer.candidate = {:candidateId}', { candidateId }) },
      ),
      // a new answer of any kind (the candidate is answering while the manager watches)
      pb.collection('answers').subscribe('*', refetch, { filter: pb.filter('candidate = {:candidateId}', { candidateId }) }),
    ])
      .then((unsubscribes) => {
        stops.push(...unsubscribes);
        if (cancelled) stops.forEach((stop) => void stop());
        else setLive(true);
      })
      .catch(() => {
        if (!cancelled) setLive(false);
      });

    return () => {
      cancelled = true;
      setLive(false);
      stops.forEach((stop) => void stop());
    };
  }, [candidateId, queryClient]);

  return live;
}
