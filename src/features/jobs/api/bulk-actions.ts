import { ClientResponseError } from 'pocketbase';

import { pb } from '@/lib/pocketbase';
import type { PipelineState } from '@/lib/pipeline-query';

/**
 * The pipeline's bulk actions (server/internal/bulk): POST /api/screenroom/jobs/{id}/bulk/{action} with the rows
 * chosen (`{candidates: [id, ...]}`) or all that match the pipeline's filter (`{filter: {status, decision, q}}`,
 * resolved by the server within the job). Every action but export answers a stream of JSON lines, one per candidate
 * as it is done, read here as it arrives so the screen shows progress; the export answers one zip. The SDK reads
 * whole JSON answers only, so these requests are made with fetch and the session's token, as the single export is.
 */
export type BulkActionKind = 'decide' | 'resend-invite' | 'message' | 'erase';

/** The candidates an action is for: rows by id, or everything the filter shows (at most 1,000). */
export type BulkSelection = { candidates: readonly string[] } | { filter: Pick<PipelineState, 'status' | 'decision' | 'q'> };

export type BulkRowStatus = 'done' | 'skipped' | 'failed';

/** One candidate's outcome: `code` says why one was not done (see bulkReason). */
export type BulkRowResult = { id: string; email: string; status: BulkRowStatus; code?: string };

/** The manager's hourly allowance of candidates (BULK_CANDIDATES_PER_HOUR), shared with CSV invites. */
export type HourlyAllowance = { limit: number; remaining: number; availableAt: string | null };

export type BulkSummary = {
  total: number;
  done: number;
  skipped: number;
  failed: number;
  /** the candidates not done, in the order they were acted on */
  notDone: BulkRowResult[];
  hourlyCap: HourlyAllowance | null;
};

export type BulkProgress = { handled: number; total: number };

export const bulkActionPath = (jobId: string, action: BulkActionKind | 'export') =>
  `/api/screenroom/jobs/${encodeURIComponent(jobId)}/bulk/${action}`;

async function post(path: string, body: unknown, signal?: AbortSignal): Promise<Response> {
  const url = pb.buildURL(path);
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: pb.authStore.token },
      body: JSON.stringify(body),
      signal,
    });
  } catch (cause) {
    throw new ClientResponseError({ url, status: 0, originalError: cause });
  }
  if (!res.ok) {
    throw new ClientResponseError({ url, status: res.status, response: (await res.json().catch(() => ({}))) as Record<string, unknown> });
  }
  return res;
}

type Line =
  | { type: 'start'; total: number }
  | ({ type: 'row' } & BulkRowResult)
  | { type: 'end'; done: number; skipped: number; failed: number; hourlyCap: HourlyAllowance };

/** The JSON lines of a streamed answer, each handed on as soon as its newline arrives. */
async function readLines(res: Response, onLine: (line: Line) => void): Promise<void> {
  const reader = res.body?.getReader();
  if (!reader) {
    for (const text of (await res.text()).split('\n')) if (text.trim()) onLine(JSON.parse(text) as Line);
    return;
  }
  const decoder = new TextDecoder();
  let buffered = '';
  for (;;) {
    const { value, done } = await reader.read();
    buffered += decoder.decode(value, { stream: !done });
    let newline = buffered.indexOf('\n');
    while (newline >= 0) {
      const text = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      if (text.trim()) onLine(JSON.parse(text) as Line);
      newline = buffered.indexOf('\n');
    }
    if (done) break;
  }
  if (buffered.trim()) onLine(JSON.parse(buffered) as Line);
}

/**
 * Runs `action` on the selection, calling `onProgress` as each candidate is handled. A refusal of the whole request
 * (the hourly allowance spent, too many at once, a rate limit) throws before anything is done; a stream cut off
 * before its end throws a network error (status 0), what was done by then being done.
 */
export async function runBulkAction(
  jobId: string,
  action: BulkActionKind,
  selection: BulkSelection,
  fields: Record<string, string>,
  onProgress: (progress: BulkProgress) => void,
): Promise<BulkSummary> {
  const res = await post(bulkActionPath(jobId, action), { ...selection, ...fields });
  const summary: BulkSummary = { total: 0, done: 0, skipped: 0, failed: 0, notDone: [], hourlyCap: null };
  let handled = 0;
  let ended = false;
  try {
    await readLines(res, (line) => {
      if (line.type === 'start') {
        summary.total = line.total;
        onProgress({ handled, total: summary.total });
      } else if (line.type === 'row') {
        handled += 1;
        if (line.status !== 'done') summary.notDone.push({ id: line.id, email: line.email, status: line.status, code: line.code });
        onProgress({ handled, total: summary.total });
      } else if (line.type === 'end') {
        ended = true;
        Object.assign(summary, { done: line.done, skipped: line.skipped, failed: line.failed, hourlyCap: line.hourlyCap });
      }
    });
  } catch (cause) {
    throw new ClientResponseError({ url: res.url, status: 0, originalError: cause });
  }
  if (!ended) throw new ClientResponseError({ url: res.url, status: 0, originalError: new Error('The bulk answer ended early') });
  return summary;
}

/**
 * Downloads the selection's export (one zip, a folder per candidate) with the manager's token, calling
 * `onProgress` with the bytes received so far, and hands it to the browser as a download.
 */
export async function downloadBulkExport(
  jobId: string,
  selection: BulkSelection,
  onProgress: (bytes: number) => void,
): Promise<{ exported: number; fileName: string }> {
  const res = await post(bulkActionPath(jobId, 'export'), selection);
  const exported = Number(res.headers.get('X-Bulk-Exported') ?? '0');
  const fileName = /filename="([^"]+)"/.exec(res.headers.get('Content-Disposition') ?? '')?.[1] ?? `candidates-${jobId}.zip`;
  const parts: Uint8Array[] = [];
  let bytes = 0;
  try {
    const reader = res.body?.getReader();
    if (reader) {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        parts.push(value);
        bytes += value.byteLength;
        onProgress(bytes);
      }
    } else {
      const whole = new Uint8Array(await res.arrayBuffer());
      parts.push(whole);
      onProgress(whole.byteLength);
    }
  } catch (cause) {
    throw new ClientResponseError({ url: res.url, status: 0, originalError: cause });
  }
  const href = URL.createObjectURL(new Blob(parts as BlobPart[], { type: 'application/zip' }));
  const link = document.createElement('a');
  link.href = href;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // the download has started from the object URL: release it once the browser has read it
  setTimeout(() => URL.revokeObjectURL(href), 60_000);
  return { exported, fileName };
}
