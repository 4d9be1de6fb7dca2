import { queryOptions } from '@tanstack/react-query';

import { paths } from '@/config/paths';
import {
  PIPELINE_PAGE_SIZE,
  pipelineListQuery,
  readPipelineState,
  writePipelineState,
  type PipelineState,
} from '@/lib/pipeline-query';
import { pb } from '@/lib/pocketbase';
import type { CandidatesResponse } from '@/lib/pocketbase-types';

/**
 * Where the review sits in the job's pipeline: the pipeline's order and filter (its search params, src/lib/
 * pipeline-query.ts) and `i`, the candidate's 0-based index in that ordered, filtered list, when the review was
 * opened from it.
 */
export type ReviewPosition = { state: PipelineState; index: number | null };

export function readReviewPosition(params: URLSearchParams): ReviewPosition {
  const raw = params.get('i');
  const index = raw !== null && /^\d{1,7}$/.test(raw) ? Number(raw) : null;
  return { state: readPipelineState(params), index };
}

/** The pipeline's params at a position: the page follows the index, so going back lands on the candidate's page. */
function positionParams(state: PipelineState, index: number | null): URLSearchParams {
  return writePipelineState(index === null ? state : { ...state, page: Math.floor(index / PIPELINE_PAGE_SIZE) + 1 });
}

function withQuery(pathname: string, params: URLSearchParams): string {
  const query = params.toString();
  return query ? `${pathname}?${query}` : pathname;
}

/** A candidate's review at a position of the pipeline. */
export function reviewHref(companyId: string, jobId: string, candidateId: string, state: PipelineState, index: number | null): string {
  const params = positionParams(state, index);
  if (index !== null) params.set('i', String(index));
  return withQuery(paths.companies.jobs.candidate.href(companyId, jobId, candidateId), params);
}

/** The job's pipeline as the manager left it, on the page of the candidate under review. */
export function pipelineHref(companyId: string, jobId: string, state: PipelineState, index: number | null): string {
  return withQuery(paths.companies.jobs.detail.href(companyId, jobId), positionParams(state, index));
}

/** Whether the candidate is (still) one of the pipeline's filtered rows: a decision set here can take it out. */
export function inPipeline(candidate: CandidatesResponse, state: PipelineState): boolean {
  if (state.status && candidate.status !== state.status) return false;
  if (state.decision === 'none' && candidate.decision) return false;
  if (state.decision && state.decision !== 'none' && candidate.decision !== state.decision) return false;
  const q = state.q.trim().toLowerCase();
  return !q || candidate.email.toLowerCase().includes(q);
}

export type Direction = 'previous' | 'next';

/**
 * The id of the candidate before or after `candidate` in the pipeline's order and filter, or null at an end.
 *
 * Found from the candidate's own place in the order (the first row past its sort value, the id breaking ties, as the
 * pipeline's sort does) rather than by reading row i ± 1: a decision or a rating changed since the list was read
 * moves or removes rows, and the neighbour stays the right one. `i` only follows along in the URL.
 */
export function neighbourQuery(jobId: string, state: PipelineState, candidate: CandidatesResponse, direction: Direction) {
  const { filter, sort } = pipelineListQuery(pb, jobId, state);
  // pipelineListQuery sorts by one field and then the id, both the same way: "-field,-id" or "field,id"
  const [first = 'created'] = sort.split(',');
  const descending = first.startsWith('-');
  const field = first.replace(/^-/, '');
  const value: unknown = (candidate as unknown as Record<string, unknown>)[field] ?? null;
  return queryOptions({
    queryKey: ['candidate-reviews', 'neighbour', jobId, sort, filter, direction, candidate.id, value] as const,
    queryFn: async ({ signal }) => {
      if (value === null) return null;
      const forward = direction === 'next';
      const op = forward === descending ? '<' : '>';
      const after = pb.filter(`(${field} ${op} {:value} || (${field} = {:value} && id ${op} {:id}))`, { value, id: candidate.id });
      const order = forward ? sort : sort.split(',').map((part) => (part.startsWith('-') ? part.slice(1) : `-${part}`)).join(',');
      const page = await pb.collection('candidates').getList<Pick<CandidatesResponse, 'id'>>(1, 1, {
        filter: `${filter} && ${after}`,
        sort: order,
        fields: 'id',
        skipTotal: true,
        signal,
      });
      return page.items[0]?.id ?? null;
    },
  });
}
