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
 * the page in the order and filter of `state`. Without a search its total comes from the counts route
 * (pipelineTotal), so the page is read without one (skipTotal): PocketBase counts a rule-checked list with a
 * COUNT(DISTINCT) over the job's candidates and the rule's joins, 10-40 ms at 3,000 candidates (issue 20). A search
 * (`q`) has no count there: its page is read with its total. The job detail sends it (job-queries.ts) and the bench
 * sends the same (scripts/bench/latency.mjs), so no import beyond the pipeline's URL state here.
 */
export function pipelinePageRequest(pb: PocketBase, jobId: string, state: PipelineState) {
  return {
    page: state.page,
    perPage: PIPELINE_PAGE_SIZE,
    options: { ...pipelineListQuery(pb, jobId, state), fields: PIPELINE_FIELDS, expand: 'decisionBy', skipTotal: !state.q.trim() },
  };
}

/** The counts route's figures a page total is read from (a part of PipelineCounts, job-queries.ts). */
export interface PipelineTotals {
  total: number;
  invited: number;
  started: number;
  completed: number;
  decisions: Record<'advance' | 'hold' | 'reject' | 'none', number>;
  byStatus?: Record<'invited' | 'started' | 'completed', Record<'advance' | 'hold' | 'reject' | 'none', number>>;
}

/**
 * How many candidates the pipeline lists in the filter of `state`, from the counts route; undefined with a search
 * (the page's own total counts then), or when a status and a decision are both chosen and the counts have no
 * `byStatus`.
 */
export function pipelineTotal(counts: PipelineTotals, state: PipelineState): number | undefined {
  if (state.q.trim()) return undefined;
  if (state.status && state.decision) return counts.byStatus?.[state.status][state.decision];
  if (state.status) return counts[state.status];
  if (state.decision) return counts.decisions[state.decision];
  return counts.total;
}

/** The counts route of a job's pipeline: GET, {total, invited, started, completed, decisions}. */
export function pipelineCountsPath(jobId: string): string {
  return `/api/screenroom/jobs/${encodeURIComponent(jobId)}/pipeline`;
}
