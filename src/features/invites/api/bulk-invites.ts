import { pb } from '@/lib/pocketbase';

export type BulkRow = { email: string; firstName?: string; lastName?: string; deadline?: string };

export type BulkRowResult =
  | { status: 'created'; candidate: string }
  | { status: 'skipped' | 'failed'; reason: string; message: string };

/**
 * The manager's hourly cap of candidates invited by CSV (BULK_CANDIDATES_PER_HOUR,
 * server/internal/platform/throttle.go): how many may still be invited now, and when the oldest counted leave the hour
 * (ISO; null when none are counted).
 */
export type HourlyCap = { limit: number; remaining: number; availableAt: string | null };

export type BulkResponse = { results: BulkRowResult[]; created: number; skipped: number; failed: number; hourlyCap?: HourlyCap };

/** One chunk of an import (server/internal/candidates): one result per row, in order. */
export function sendInviteChunk(jobId: string, importId: string, rows: BulkRow[]): Promise<BulkResponse> {
  return pb.send<BulkResponse>(`/api/screenroom/jobs/${encodeURIComponent(jobId)}/invites/bulk`, {
    method: 'POST',
    body: { importId, rows },
    requestKey: null,
  });
}

/** The lower-cased e-mails already invited to the job (the preview's "already invited"). */
export async function invitedEmails(jobId: string): Promise<Set<string>> {
  const records = await pb.collection('candidates').getFullList({
    filter: pb.filter('job = {:job}', { job: jobId }),
    fields: 'email',
    batch: 1000,
    requestKey: null,
  });
  return new Set(records.map((record) => record.email.toLowerCase()));
}
