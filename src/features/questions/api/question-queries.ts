import { queryOptions } from '@tanstack/react-query';
import type { ListResult } from 'pocketbase';

import { pb } from '@/lib/pocketbase';
import type { JobsResponse, QuestionsResponse, TextQuestionsResponse, VideoQuestionsResponse } from '@/lib/pocketbase-types';

import { DEFAULT_PREPARATION, type QuestionFormInput } from '../schemas';

/**
 * PocketBase expands a back-relation whose field is unique (one kind record per question) as a single record,
 * an older server as a list: accept both.
 */
export type QuestionKindExpand = {
  video_questions_via_question?: VideoQuestionsResponse | VideoQuestionsResponse[];
  text_questions_via_question?: TextQuestionsResponse | TextQuestionsResponse[];
};

export type QuestionWithKind = QuestionsResponse<QuestionKindExpand>;

/** A question of the questions list: its kind (the jobs using it come from the company's jobs list, jobsUsingEach). */
export type QuestionOverview = QuestionWithKind;

/**
 * How many of `jobs` use each question, by question id (a question no job uses is absent). The questions list reads
 * this from the company's jobs list (jobQueries.list, which the company home shares), not from a `jobs_via_questions`
 * expand: PocketBase resolves that back-relation of a multi-relation field by reading every job's questions for each
 * question listed, 100-250 ms at 300 jobs (issue 20, --scale=10).
 */
export function jobsUsingEach(jobs: readonly Pick<JobsResponse, 'questions'>[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const job of jobs) for (const id of new Set(job.questions)) counts.set(id, (counts.get(id) ?? 0) + 1);
  return counts;
}

export type QuestionKindRecord =
  | { type: 'video'; record: VideoQuestionsResponse }
  | { type: 'text'; record: TextQuestionsResponse };

export const QUESTION_KIND_EXPAND = 'video_questions_via_question,text_questions_via_question';

/**
 * GET: every question of the company with its kind expanded, newest first
 * (server/internal/questions/questions_list.go).
 */
export function questionsListPath(companyId: string): string {
  return `/api/screenroom/companies/${encodeURIComponent(companyId)}/questions`;
}

function first<T>(value: T | T[] | undefined): T | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The question's kind record, or null for a question without one (the server never stores such a question). */
export function questionKind(question: QuestionWithKind): QuestionKindRecord | null {
  const video = first(question.expand?.video_questions_via_question);
  if (video) return { type: 'video', record: video };
  const text = first(question.expand?.text_questions_via_question);
  if (text) return { type: 'text', record: text };
  return null;
}

/** The question as its form edits it. */
export function questionFormValues(question: QuestionWithKind): QuestionFormInput {
  const kind = questionKind(question);
  return {
    title: question.title,
    description: question.description,
    timeout: question.timeout,
    canPreview: question.canPreview,
    kind:
      kind?.type === 'text'
        ? { type: 'text' }
        : { type: 'video', takes: kind?.record.takes ?? 1, preparation: kind?.record.preparation ?? DEFAULT_PREPARATION },
  };
}

/** The questions' query keys and fetchers; lists are always one company's questions (decisions.md). */
export const questionQueries = {
  all: () => ['questions'] as const,
  lists: () => [...questionQueries.all(), 'list'] as const,
  list: (companyId: string) =>
    queryOptions({
      queryKey: [...questionQueries.lists(), companyId] as const,
      queryFn: ({ signal }) =>
        pb.collection('questions').getFullList<QuestionWithKind>({
          filter: pb.filter('company = {:company}', { company: companyId }),
          sort: '-created,id',
          expand: QUESTION_KIND_EXPAND,
          signal,
        }),
    }),
  /**
   * The questions list (issue 16): each question with its kind, in one request however many questions there are (no
   * request per row); how many jobs use each comes from the company's jobs list (jobsUsingEach). The route
   * (server/internal/questions/questions_list.go) answers what the records API's list with QUESTION_KIND_EXPAND
   * answers, newest first, deciding access once for the company instead of running the kinds' rules per record
   * (issue 20).
   */
  overview: (companyId: string) =>
    queryOptions({
      queryKey: [...questionQueries.lists(), companyId, 'overview'] as const,
      queryFn: async ({ signal }) => {
        const list = await pb.send<ListResult<QuestionOverview>>(questionsListPath(companyId), { method: 'GET', signal });
        return list.items;
      },
    }),
  details: () => [...questionQueries.all(), 'detail'] as const,
  detail: (questionId: string) =>
    queryOptions({
      queryKey: [...questionQueries.details(), questionId] as const,
      queryFn: ({ signal }) =>
        pb.collection('questions').getOne<QuestionWithKind>(questionId, { expand: QUESTION_KIND_EXPAND, signal }),
    }),
};
