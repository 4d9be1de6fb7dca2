import { queryOptions } from '@tanstack/react-query';

import { pb } from '@/lib/pocketbase';
import { PREFETCHED_FRESH_MS } from '@/lib/query-client';
import type { CandidatesResponse, JobsResponse, QuestionsResponse } from '@/lib/pocketbase-types';

/** A job as its detail and edit screens read it: its questions expanded (spec §7 GET jobs/{id}). */
export type JobDetail = JobsResponse<{ questions?: QuestionsResponse[] }>;

/** The job's questions in the job's order (the stored order of `questions`, whatever order the expand came in). */
export function orderedQuestions(job: JobDetail): QuestionsResponse[] {
  const byId = new Map((job.expand?.questions ?? []).map((question) => [question.id, question]));
  return job.questions.flatMap((id) => {
    const question = byId.get(id);
    return question ? [question] : [];
  });
}

/** The jobs' query keys and fetchers; lists are always one company's jobs (decisions.md). */
export const jobQueries = {
  all: () => ['jobs'] as const,
  lists: () => [...jobQueries.all(), 'list'] as const,
  list: (companyId: string) =>
    queryOptions({
      queryKey: [...jobQueries.lists(), companyId] as const,
      queryFn: ({ signal }) =>
        pb.collection('jobs').getFullList<JobsResponse>({
          filter: pb.filter('company = {:company}', { company: companyId }),
          sort: '-created,id',
          signal,
        }),
      staleTime: PREFETCHED_FRESH_MS,
    }),
  details: () => [...jobQueries.all(), 'detail'] as const,
  detail: (jobId: string) =>
    queryOptions({
      queryKey: [...jobQueries.details(), jobId] as const,
      queryFn: ({ signal }) => pb.collection('jobs').getOne<JobDetail>(jobId, { expand: 'questions', signal }),
    }),
  candidateLists: () => [...jobQueries.all(), 'candidates'] as const,
  /** The candidates invited to a job, newest first. */
  candidates: (jobId: string) =>
    queryOptions({
      queryKey: [...jobQueries.candidateLists(), jobId] as const,
      queryFn: ({ signal }) =>
        pb.collection('candidates').getFullList<CandidatesResponse>({
          filter: pb.filter('job = {:job}', { job: jobId }),
          sort: '-created,id',
          signal,
        }),
    }),
};
