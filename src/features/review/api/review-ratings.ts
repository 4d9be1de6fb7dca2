import { queryOptions, useMutation, useMutationState, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { ClientResponseError } from 'pocketbase';

import { showErrorToast } from '@/components/toaster';
import { GENERIC_ERROR_MESSAGE } from '@/lib/errors';
import { pb } from '@/lib/pocketbase';
import type { RatingsResponse } from '@/lib/pocketbase-types';

/**
 * The managers' 1-5 stars on a candidate's answers (issue 15): every rating of the candidate in one list, which the
 * rating controls, the averages and the overall score read, and which realtime events from other managers patch
 * (review-feedback-updates.ts). The server lets a manager write only their own (the ratings collection's rules).
 */
export const ratingQueries = {
  all: () => ['review-ratings'] as const,
  list: (candidateId: string) =>
    queryOptions({
      queryKey: [...ratingQueries.all(), candidateId] as const,
      queryFn: ({ signal }) =>
        pb.collection('ratings').getFullList<RatingsResponse>({
          filter: pb.filter('candidate = {:candidateId}', { candidateId }),
          sort: 'created,id',
          signal,
        }),
    }),
};

/** A rating the server sent (a write's answer or a realtime event) put into the candidate's cached list. */
export function putRating(queryClient: QueryClient, candidateId: string, record: RatingsResponse): boolean {
  let known = false;
  queryClient.setQueryData(ratingQueries.list(candidateId).queryKey, (list) => {
    if (!list) return list;
    known = true;
    // a write's answer and its own realtime event may come in either order: the newer one wins
    const current = list.find((rating) => rating.id === record.id);
    if (current && current.updated > record.updated) return list;
    return current ? list.map((rating) => (rating.id === record.id ? record : rating)) : [...list, record];
  });
  return known;
}

export function dropRating(queryClient: QueryClient, candidateId: string, ratingId: string): void {
  queryClient.setQueryData(ratingQueries.list(candidateId).queryKey, (list) => list?.filter((rating) => rating.id !== ratingId));
}

export type RatingSummary = {
  /** The signed-in manager's stars, or null. */
  own: number | null;
  /** The mean of every manager's stars on the answer, or null when nobody rated it. */
  average: number | null;
  raters: number;
};

/** One answer's ratings as the screen shows them; `ownStars` overrides the stored own rating while a write is on its way. */
export function summarizeAnswer(
  ratings: readonly RatingsResponse[],
  answerId: string,
  managerId: string,
  ownStars?: number | null,
): RatingSummary {
  const stars = ratings
    .filter((rating) => rating.answer === answerId && rating.manager !== managerId)
    .map((rating) => rating.stars);
  const own = ownStars !== undefined ? ownStars : (ratings.find((r) => r.answer === answerId && r.manager === managerId)?.stars ?? null);
  if (own !== null) stars.push(own);
  return { own, average: stars.length ? mean(stars) : null, raters: stars.length };
}

/**
 * The candidate's overall score: the average over the rated answers of each answer's average rating (the server's
 * `averageRating`, computed here from the same ratings so it moves with them live).
 */
export function overallScore(summaries: readonly RatingSummary[]): { score: number; answers: number } | null {
  const averages = summaries.flatMap((summary) => (summary.average === null ? [] : [summary.average]));
  return averages.length ? { score: mean(averages), answers: averages.length } : null;
}

function mean(values: readonly number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}

/** 4.5, 4, 3.7: one decimal, none when whole. */
export function formatStars(value: number): string {
  return String(Math.round(value * 10) / 10);
}

export type RateAnswerInput = { answerId: string; stars: number | null };

const rateKey = (candidateId: string) => ['rate-answer', candidateId] as const;

/**
 * Sets (1-5) or clears (null) the signed-in manager's rating of one answer: create, update or delete of their own
 * record. The writes run one after another (a mutation scope), each deciding from the list as the one before left
 * it, so quick presses never create two ratings or update a deleted one. What the screen shows meanwhile is the
 * latest pending write (usePendingStars); a refused write shows the stored rating again, with a toast.
 */
export function useRateAnswer(candidateId: string, managerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: rateKey(candidateId),
    mutationFn: async ({ answerId, stars }: RateAnswerInput) => {
      const key = ratingQueries.list(candidateId).queryKey;
      const own = (queryClient.getQueryData(key) ?? []).find((r) => r.answer === answerId && r.manager === managerId);
      if (stars === null) {
        if (own) await pb.collection('ratings').delete(own.id).catch(ignoreNotFound);
        return { answerId, removed: own?.id ?? null, record: null };
      }
      if (own) {
        try {
          return { answerId, removed: null, record: await pb.collection('ratings').update<RatingsResponse>(own.id, { stars }) };
        } catch (error) {
          // deleted meanwhile (in another tab): rate afresh
          if (!(error instanceof ClientResponseError && error.status === 404)) throw error;
          dropRating(queryClient, candidateId, own.id);
        }
      }
      return { answerId, removed: own?.id ?? null, record: await createOrUpdate(candidateId, managerId, answerId, stars) };
    },
    onSuccess: ({ removed, record }) => {
      if (removed) dropRating(queryClient, candidateId, removed);
      if (record) putRating(queryClient, candidateId, record);
    },
    onError: (error) => {
      console.error(error);
      showErrorToast(GENERIC_ERROR_MESSAGE);
    },
    scope: { id: rateKey(candidateId).join(':') },
  });
}

/** The manager's stars on each answer while a write of theirs is on its way (the latest wins). */
export function usePendingStars(candidateId: string): Map<string, number | null> {
  const pending = useMutationState({
    filters: { mutationKey: rateKey(candidateId), status: 'pending' },
    select: (mutation) => mutation.state.variables as RateAnswerInput | undefined,
  });
  const byAnswer = new Map<string, number | null>();
  for (const input of pending) if (input) byAnswer.set(input.answerId, input.stars);
  return byAnswer;
}

async function createOrUpdate(candidateId: string, managerId: string, answerId: string, stars: number): Promise<RatingsResponse> {
  try {
    return await pb.collection('ratings').create<RatingsResponse>({ answer: answerId, candidate: candidateId, manager: managerId, stars });
  } catch (error) {
    // one rating per answer and manager: one made in another tab since this list was read is updated instead
    if (!(error instanceof ClientResponseError && error.status === 400)) throw error;
    const existing = await pb
      .collection('ratings')
      .getFirstListItem<RatingsResponse>(pb.filter('answer = {:answerId} && manager = {:managerId}', { answerId, managerId }))
      .catch(() => {
        throw error;
      });
    return pb.collection('ratings').update<RatingsResponse>(existing.id, { stars });
  }
}

function ignoreNotFound(error: unknown): void {
  if (error instanceof ClientResponseError && error.status === 404) return;
  throw error;
}
