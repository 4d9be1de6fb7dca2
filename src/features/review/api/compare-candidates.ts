import { queryOptions } from '@tanstack/react-query';

import { reviewQueries, type CandidateReview, type ReviewAnswer, type ReviewQuestion } from './review-candidate';

/** How many candidates the comparison shows side by side. */
export const COMPARE_MIN = 2;
export const COMPARE_MAX = 4;

/**
 * The candidates of `?candidates=id1,id2`, in the link's order, each once. `problem` when the link does not name two
 * to four candidates.
 */
export function readCompareIds(params: URLSearchParams): { ids: string[]; problem: 'too-few' | 'too-many' | null } {
  const ids = [...new Set((params.get('candidates') ?? '').split(',').map((id) => id.trim()).filter(Boolean))];
  if (ids.length < COMPARE_MIN) return { ids, problem: 'too-few' };
  if (ids.length > COMPARE_MAX) return { ids, problem: 'too-many' };
  return { ids, problem: null };
}

/**
 * One column's review: the review route (server/internal/review/review.go) decides, per candidate, that only a
 * manager of the candidate's company reads it; anyone else, and any id that is no candidate's, gets 404, which is the
 * same on every attempt (the app's client does not retry a 404; it is not fetched again as the screen mounts).
 */
export function compareReviewQuery(candidateId: string) {
  return queryOptions({ ...reviewQueries.detail(candidateId), retryOnMount: false });
}

/** Why a column shows nothing: the server found no candidate this manager may read, or it is another job's. */
export type Unavailable = 'not-found' | 'other-job';

export type CompareColumn = { id: string; review: CandidateReview };

/**
 * The questions of the comparison: the job's, in the job's order, then any question a compared candidate answered
 * that the job no longer asks, in the order met (as each review lists them).
 */
export function compareQuestions(columns: readonly CompareColumn[]): ReviewQuestion[] {
  const seen = new Map<string, ReviewQuestion>();
  for (const { review } of columns) {
    for (const question of review.expand?.job?.expand?.questions ?? []) if (!seen.has(question.id)) seen.set(question.id, question);
  }
  return [...seen.values()];
}

/** A candidate's answers to a question, oldest first. */
export function answersTo(review: CandidateReview, questionId: string): ReviewAnswer[] {
  return (review.expand?.answers_via_candidate ?? [])
    .filter((answer) => answer.question === questionId)
    .sort((a, b) => a.created.localeCompare(b.created));
}

/**
 * The comparison's answers as a grid, a row per question and a column per candidate, and the order the keyboard walks
 * them (N and P): question by question, left to right.
 */
export function compareGrid(columns: readonly CompareColumn[], questions: readonly ReviewQuestion[]) {
  const rows = questions.map((question) => columns.map(({ review }) => answersTo(review, question.id).map((answer) => answer.id)));
  return { rows, order: rows.flatMap((row) => row.flat()) };
}

/**
 * The answer to the same question of the next (1) or previous (-1) candidate who answered it, from `answerId`;
 * null at either end.
 */
export function besideAnswer(rows: readonly (readonly (readonly string[])[])[], answerId: string, delta: 1 | -1): string | null {
  for (const row of rows) {
    const column = row.findIndex((answers) => answers.includes(answerId));
    if (column === -1) continue;
    for (let index = column + delta; index >= 0 && index < row.length; index += delta) {
      const first = row[index]?.[0];
      if (first) return first;
    }
    return null;
  }
  return null;
}
