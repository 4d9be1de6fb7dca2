import type PocketBase from 'pocketbase';

import { PIPELINE_PAGE_SIZE, pipelineListQuery, type PipelineState } from '@/lib/pipeline-query';

/**
 * The fields a pipeline row needs, nothing more (3,000 candidates a job: a page's bytes matter), with the name of
 * whoever set the decision.
 */
export const PIPELINE_FIELDS = [
  'id',
  'email',
  'created',
  'status',
  'answeredCount',
  'completedAt',
  'averageRating',
  'ratingsCount',
  'decision',
  'decisionAt',
  'deadline',
  'withdrawn',
  'expand.decisionBy.id',
  'expand.decisionBy.firstName',
  'expand.decisionBy.lastName',
].join(',');

/**
 * The list request of one page of a job's pipeline, `pb.collection('candidates').getList(page, perPage, options)`:
 * the page in the order and filter of `state`, with its total for the page count (skipTotal false). The job detail
 * sends it (job-queries.ts) and the bench sends the same (scripts/bench/latency.mjs), so no import beyond the
 * pipeline's URL state here.
 */
export function pipelinePageRequest(pb: PocketBase, jobId: string, state: PipelineState) {
  return {
    page: state.page,
    perPage: PIPELINE_PAGE_SIZE,
    options: { ...pipelineListQuery(pb, jobId, state), fields: PIPELINE_FIELDS, expand: 'decisionBy', skipTotal: false },
  };
}

/** The counts route of a job's pipeline: GET, {total, invited, started, completed, decisions}. */
export function pipelineCountsPath(jobId: string): string {
  return `/api/screenroom/jobs/${encodeURIComponent(jobId)}/pipeline`;
}
