import type PocketBase from 'pocketbase';

/**
 * A job's candidate pipeline (issue 15) as the URL keeps it: the job detail's table reads and writes it in its search
 * params, and the review screen's previous / next candidate walks the same order with the same filter. One place for
 * the params and for the PocketBase list query they mean, shared by features/jobs and features/review.
 */
export type PipelineStatus = 'invited' | 'started' | 'completed';
export type PipelineDecision = 'advance' | 'hold' | 'reject';
export type PipelineSortKey = 'email' | 'created' | 'status' | 'averageRating' | 'decision';

export interface PipelineState {
  sort: PipelineSortKey;
  dir: 'asc' | 'desc';
  /** '' = every status */
  status: PipelineStatus | '';
  /** '' = every decision, 'none' = no decision yet */
  decision: PipelineDecision | 'none' | '';
  /** part of the e-mail address, '' = all */
  q: string;
  /** 1-based */
  page: number;
}

/** Spec §9: 30 rows a page. */
export const PIPELINE_PAGE_SIZE = 30;

export const DEFAULT_PIPELINE: PipelineState = { sort: 'created', dir: 'desc', status: '', decision: '', q: '', page: 1 };

const SORTS: readonly PipelineSortKey[] = ['email', 'created', 'status', 'averageRating', 'decision'];
const STATUSES: readonly PipelineStatus[] = ['invited', 'started', 'completed'];
const DECISIONS: readonly (PipelineDecision | 'none')[] = ['advance', 'hold', 'reject', 'none'];

/** The column each sort key orders by: a status sorts by the answers stored (invited 0 < started < completed). */
const SORT_FIELDS: Record<PipelineSortKey, string> = {
  email: 'email',
  created: 'created',
  status: 'answeredCount',
  averageRating: 'averageRating',
  decision: 'decision',
};

function oneOf<T extends string>(value: string | null, allowed: readonly T[], fallback: T): T {
  return value !== null && (allowed as readonly string[]).includes(value) ? (value as T) : fallback;
}

/** The pipeline state in `params`; anything missing or unknown is the default. */
export function readPipelineState(params: URLSearchParams): PipelineState {
  const page = Number(params.get('page'));
  return {
    sort: oneOf(params.get('sort'), SORTS, DEFAULT_PIPELINE.sort),
    dir: params.get('dir') === 'asc' ? 'asc' : params.get('dir') === 'desc' ? 'desc' : DEFAULT_PIPELINE.dir,
    status: oneOf<PipelineStatus | ''>(params.get('status'), STATUSES, ''),
    decision: oneOf<PipelineDecision | 'none' | ''>(params.get('decision'), DECISIONS, ''),
    q: (params.get('q') ?? '').slice(0, 200),
    page: Number.isInteger(page) && page >= 1 ? page : 1,
  };
}

/** Search params holding `state`, defaults left out (a clean URL for the default view). */
export function writePipelineState(state: PipelineState): URLSearchParams {
  const params = new URLSearchParams();
  if (state.sort !== DEFAULT_PIPELINE.sort) params.set('sort', state.sort);
  if (state.dir !== DEFAULT_PIPELINE.dir) params.set('dir', state.dir);
  if (state.status) params.set('status', state.status);
  if (state.decision) params.set('decision', state.decision);
  if (state.q) params.set('q', state.q);
  if (state.page !== 1) params.set('page', String(state.page));
  return params;
}

/**
 * The list query of the pipeline's candidates of `jobId` (pb.collection('candidates').getList(page, size, ...)):
 * values bound with pb.filter, and a sort that ends with the id, so equal values keep one order and pages never
 * repeat or skip a candidate.
 */
export function pipelineListQuery(pb: PocketBase, jobId: string, state: PipelineState): { filter: string; sort: string } {
  const clauses = [pb.filter('job = {:job}', { job: jobId })];
  if (state.status) clauses.push(pb.filter('status = {:status}', { status: state.status }));
  if (state.decision === 'none') clauses.push("decision = ''");
  else if (state.decision) clauses.push(pb.filter('decision = {:decision}', { decision: state.decision }));
  const q = state.q.trim();
  if (q) clauses.push(pb.filter('email ~ {:q}', { q }));
  const field = SORT_FIELDS[state.sort];
  const sign = state.dir === 'desc' ? '-' : '';
  return { filter: clauses.join(' && '), sort: `${sign}${field},${sign}id` };
}
