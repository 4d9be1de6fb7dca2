import { queryOptions, type QueryClient } from '@tanstack/react-query';

import { pb } from '@/lib/pocketbase';
import type {
  AnswersResponse,
  CandidatesResponse,
  JobsResponse,
  QuestionsResponse,
  TextAnswersResponse,
  TextQuestionsResponse,
  VideoAnswersResponse,
  VideoQuestionsResponse,
} from '@/lib/pocketbase-types';
import type { TranscriptSegment } from '@/components/timed-transcript';

/**
 * PocketBase expands a back-relation as one record when its field has a unique index (every kind record here
 * does), and as a list otherwise: both shapes are read, so a schema change never blanks the screen.
 */
type OneOrMany<T> = T | T[];

export type ReviewQuestion = QuestionsResponse<{
  video_questions_via_question?: OneOrMany<VideoQuestionsResponse>;
  text_questions_via_question?: OneOrMany<TextQuestionsResponse>;
}>;

export type ReviewAnswer = AnswersResponse<{
  video_answers_via_answer?: OneOrMany<VideoAnswersResponse>;
  text_answers_via_answer?: OneOrMany<TextAnswersResponse>;
}>;

export type CandidateReview = CandidatesResponse<{
  job?: JobsResponse<{ questions?: ReviewQuestion[] }>;
  answers_via_candidate?: ReviewAnswer[];
}>;

/**
 * The review's query keys and fetchers: the candidate with its job's questions (and their kinds) and its answers (and
 * their kinds), in the records API's expanded shape (spec §7 GET candidates/{id}), read through the server's review
 * route (server/internal/review/review.go), which answers it in one access decision for the job's managers.
 */
export const reviewQueries = {
  all: () => ['candidate-reviews'] as const,
  details: () => [...reviewQueries.all(), 'detail'] as const,
  detail: (candidateId: string) =>
    queryOptions({
      queryKey: [...reviewQueries.details(), candidateId] as const,
      queryFn: ({ signal }) =>
        pb.send<CandidateReview>(`/api/screenroom/reviews/${encodeURIComponent(candidateId)}`, { method: 'GET', signal }),
    }),
};

export function firstOf<T>(value: OneOrMany<T> | undefined): T | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Puts a video answer the server just changed (transcript landed, file made seekable) into the cached review,
 * without refetching the whole candidate. Returns false when the review does not hold that answer.
 */
export function patchVideoAnswer(queryClient: QueryClient, candidateId: string, record: VideoAnswersResponse): boolean {
  let found = false;
  queryClient.setQueryData(reviewQueries.detail(candidateId).queryKey, (review) => {
    if (!review?.expand?.answers_via_candidate) return review;
    const answers = review.expand.answers_via_candidate.map((answer) => {
      const current = firstOf(answer.expand?.video_answers_via_answer);
      if (!current || current.id !== record.id) return answer;
      found = true;
      return { ...answer, expand: { ...answer.expand, video_answers_via_answer: { ...current, ...record } } };
    });
    return { ...review, expand: { ...review.expand, answers_via_candidate: answers } };
  });
  return found;
}

/**
 * Puts the candidate record the server just sent (a decision set here or by another manager, the hooks' pipeline
 * fields after a rating or an answer) into the cached review, keeping the review's expanded job and answers.
 */
export function patchCandidate(queryClient: QueryClient, record: CandidatesResponse): void {
  queryClient.setQueryData(reviewQueries.detail(record.id).queryKey, (review) => {
    if (!review) return review;
    // a realtime event and a write's answer may come in either order: an older record never wins
    if (review.updated > record.updated) return review;
    return { ...review, ...record, expand: review.expand };
  });
}

export type { TranscriptSegment };

/**
 * The media worker's timed transcript (video_answers.transcriptSegments: [{start, end, text}] in seconds), or null
 * when the answer has none (answers transcribed before issue 15 keep their plain `transcript`) or it is malformed.
 */
export function transcriptSegments(video: VideoAnswersResponse): TranscriptSegment[] | null {
  const value: unknown = video.transcriptSegments;
  if (!Array.isArray(value) || value.length === 0) return null;
  const segments: TranscriptSegment[] = [];
  for (const item of value as unknown[]) {
    if (typeof item !== 'object' || item === null) return null;
    const { start, end, text } = item as Record<string, unknown>;
    if (typeof start !== 'number' || typeof end !== 'number' || typeof text !== 'string') return null;
    if (!Number.isFinite(start) || !Number.isFinite(end) || start < 0 || end < start) return null;
    if (text.trim()) segments.push({ start, end, text: text.trim() });
  }
  return segments.length ? segments.sort((a, b) => a.start - b.start) : null;
}
