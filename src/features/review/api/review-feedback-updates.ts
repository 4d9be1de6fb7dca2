import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';

import { pb } from '@/lib/pocketbase';
import type { CandidatesResponse, RatingsResponse } from '@/lib/pocketbase-types';

import { patchCandidate } from './review-candidate';
import { AUTHOR_EXPAND, commentQueries, dropComment, putComment, type ReviewComment } from './review-comments';
import { dropRating, putRating, ratingQueries } from './review-ratings';

/**
 * Keeps what the managers say about a candidate live (issue 15): ratings and comments created, changed or deleted
 * by another manager viewing the same candidate, and the candidate record (a decision set elsewhere), arrive over
 * PocketBase realtime, which sends each event only to those the collection's rules let see it. Unsubscribed when
 * the review is left or moves to another candidate.
 */
export function useReviewFeedbackUpdates(candidateId: string): void {
  const queryClient = useQueryClient();

  useEffect(() => {
    let cancelled = false;
    const stops: (() => Promise<void>)[] = [];
    const byCandidate = { filter: pb.filter('candidate = {:candidateId}', { candidateId }) };

    void Promise.allSettled([
      pb.collection('ratings').subscribe<RatingsResponse>(
        '*',
        (event) => {
          if (event.action === 'delete') dropRating(queryClient, candidateId, event.record.id);
          else if (!putRating(queryClient, candidateId, event.record)) void queryClient.invalidateQueries({ queryKey: ratingQueries.list(candidateId).queryKey });
        },
        byCandidate,
      ),
      pb.collection('comments').subscribe<ReviewComment>(
        '*',
        (event) => {
          if (event.action === 'delete') dropComment(queryClient, candidateId, event.record.id);
          else if (!putComment(queryClient, candidateId, event.record)) void queryClient.invalidateQueries({ queryKey: commentQueries.list(candidateId).queryKey });
        },
        { ...byCandidate, expand: AUTHOR_EXPAND },
      ),
      pb.collection('candidates').subscribe<CandidatesResponse>(candidateId, (event) => {
        if (event.action === 'update') patchCandidate(queryClient, event.record);
      }),
    ]).then((results) => {
      for (const result of results) {
        if (result.status === 'fulfilled') stops.push(result.value);
        // without realtime the review still works; other managers' changes then show on the next visit
        else console.error(result.reason);
      }
      if (cancelled) {
        stops.forEach((stop) => void stop());
        return;
      }
      // what changed between the first read and the subscription
      void queryClient.invalidateQueries({ queryKey: ratingQueries.list(candidateId).queryKey });
      void queryClient.invalidateQueries({ queryKey: commentQueries.list(candidateId).queryKey });
    });

    return () => {
      cancelled = true;
      stops.forEach((stop) => void stop());
    };
  }, [candidateId, queryClient]);
}
