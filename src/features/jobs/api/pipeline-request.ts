import { PIPELINE_PAGE_SIZE, type PipelineState } from '@/lib/pipeline-query';

/**
 * The request of one page of a job's pipeline, `pb.send(path, { query })`: GET /api/screenroom/jobs/{id}/candidates
 * (server/internal/pipeline/pipeline_page.go) with the page in the order and filter of `state`. It answers the records
 * API's list shape ({page, perPage, totalItems, totalPages, items}) with the table's fields only and the name of
 * whoever set each decision, its total always counted: one request a page however many candidates the job has
 * (issue 20: the records API's list with `fields` and the decisionBy expand answered a quarter as many pages a second
 * at 3,000 candidates). The job detail sends it (job-queries.ts) and the bench sends the same
 * (scripts/bench/latency.mjs), so no import beyond the pipeline's URL state here.
 */
export function pipelinePageRequest(jobId: string, state: PipelineState): { path: string; query: Record<string, string> } {
  const query: Record<string, string> = {
    page: String(state.page),
    perPage: String(PIPELINE_PAGE_SIZE),
    sort: state.sort,
    dir: state.dir,
  };
  if (state.status) query.status = state.status;
  if (state.decision) query.decision = state.decision;
  const q = state.q.trim();
  if (q) query.q = q;
  return { path: `/api/screenroom/jobs/${encodeURIComponent(jobId)}/candidates`, query };
}

/** The counts route of a job's pipeline: GET, {total, invited, started, completed, decisions}. */
export function pipelineCountsPath(jobId: string): string {
  return `/api/screenroom/jobs/${encodeURIComponent(jobId)}/pipeline`;
}
