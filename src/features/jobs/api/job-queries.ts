import { queryOptions } from '@tanstack/react-query';
import type { ListResult } from 'pocketbase';

import { takeEarlyRead } from '@/lib/early-read';
import type { PipelineState } from '@/lib/pipeline-query';
import { pb } from '@/lib/pocketbase';
import { PREFETCHED_FRESH_MS } from '@/lib/query-client';
import type { CandidatesResponse, JobsResponse, QuestionsResponse, UsersResponse } from '@/lib/pocketbase-types';

import { pipelineCountsPath, pipelinePageRequest } from './pipeline-request';

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

/** A job as the jobs list (and the questions list's job counts) read it: the record less its long texts. */
export type JobListItem = Omit<JobsResponse, 'description' | 'welcomeMessage'>;

/**
 * GET: every job of the company, newest first (server/internal/jobs/jobs_list.go; issue 20: the records API's full list
 * of 301 jobs cost 77 ms p95 at ten times the bench data).
 */
export function jobsListPath(companyId: string): string {
  return `/api/screenroom/companies/${encodeURIComponent(companyId)}/jobs`;
}

/** A row of the pipeline: what the table shows of a candidate, and who set its decision (a fellow manager). */
export type PipelineCandidate = Pick<
  CandidatesResponse,
  | 'id'
  | 'email'
  | 'created'
  | 'status'
  | 'answeredCount'
  | 'completedAt'
  | 'averageRating'
  | 'ratingsCount'
  | 'decision'
  | 'decisionAt'
  | 'deadline'
  | 'withdrawn'
> & { expand?: { decisionBy?: Pick<UsersResponse, 'id' | 'firstName' | 'lastName'> } };

/**
 * The job's candidates by status and decision (GET /api/screenroom/jobs/{id}/pipeline,
 * server/internal/pipeline/pipeline_counts.go).
 */
export type PipelineCounts = {
  total: number;
  invited: number;
  started: number;
  completed: number;
  decisions: { advance: number; hold: number; reject: number; none: number };
  /** each status by decision (issue 20: the pages' totals) */
  byStatus?: Record<'invited' | 'started' | 'completed', { advance: number; hold: number; reject: number; none: number }>;
};

/** A job's candidates per status, for the jobs list. */
export type JobCandidateCounts = Pick<PipelineCounts, 'total' | 'invited' | 'started' | 'completed'>;

/**
 * GET /api/screenroom/companies/{id}/job-counts (server/internal/jobs/job_counts.go): a job without candidates is
 * absent.
 */
export type CompanyJobCounts = { jobs: Record<string, JobCandidateCounts | undefined> };

/** One page of the pipeline, with the state it was read in (its rows' links carry that state). */
export type PipelinePage = ListResult<PipelineCandidate> & { state: PipelineState };

/** The jobs' query keys and fetchers; lists are always one company's jobs (decisions.md). */
export const jobQueries = {
  all: () => ['jobs'] as const,
  lists: () => [...jobQueries.all(), 'list'] as const,
  list: (companyId: string) =>
    queryOptions({
      queryKey: [...jobQueries.lists(), companyId] as const,
      // the first read of a page load may already be under way from index.html
      queryFn: async ({ signal }) =>
        (await takeEarlyRead<JobListItem[]>(jobsListPath(companyId))) ??
        pb.send<JobListItem[]>(jobsListPath(companyId), { method: 'GET', signal }),
      staleTime: PREFETCHED_FRESH_MS,
    }),
  /** Every job's candidates per status for the jobs list, in one request (not one pipeline request per job). */
  listCounts: (companyId: string) =>
    queryOptions({
      queryKey: [...jobQueries.pipelines(), 'company', companyId] as const,
      queryFn: async ({ signal }) => {
        const path = `/api/screenroom/companies/${encodeURIComponent(companyId)}/job-counts`;
        return (await takeEarlyRead<CompanyJobCounts>(path)) ?? pb.send<CompanyJobCounts>(path, { method: 'GET', signal });
      },
      staleTime: PREFETCHED_FRESH_MS,
    }),
  details: () => [...jobQueries.all(), 'detail'] as const,
  detail: (jobId: string) =>
    queryOptions({
      queryKey: [...jobQueries.details(), jobId] as const,
      queryFn: ({ signal }) => pb.collection('jobs').getOne<JobDetail>(jobId, { expand: 'questions', signal }),
    }),
  pipelines: () => [...jobQueries.all(), 'pipeline'] as const,
  /** Everything the job's pipeline shows (its pages and its counts): what an invite makes stale. */
  pipeline: (jobId: string) => [...jobQueries.pipelines(), jobId] as const,
  /**
   * One page of the job's candidate pipeline in the order and filter of `state` (src/lib/pipeline-query.ts), with
   * its total for the page count: one request a page, the table's fields only, however many candidates the job has
   * (pipeline-request.ts).
   */
  pipelinePage: (jobId: string, state: PipelineState) =>
    queryOptions({
      queryKey: [...jobQueries.pipeline(jobId), 'page', state] as const,
      queryFn: async ({ signal }): Promise<PipelinePage> => {
        const { path, query } = pipelinePageRequest(jobId, state);
        const list = await pb.send<ListResult<PipelineCandidate>>(path, { method: 'GET', query, signal });
        return { ...list, state };
      },
      // The page shown stays while the next one loads (paging, sorting, filtering, searching): no flash of a spinner.
      // Another job's page is never shown in its place.
      placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[2] === jobId ? previous : undefined),
    }),
  /** How many of the job's candidates are in each status and decision (GET /api/screenroom/jobs/{id}/pipeline). */
  pipelineCounts: (jobId: string) =>
    queryOptions({
      queryKey: [...jobQueries.pipeline(jobId), 'counts'] as const,
      queryFn: ({ signal }) =>
        pb.send<PipelineCounts>(pipelineCountsPath(jobId), { method: 'GET', signal }),
    }),
};
