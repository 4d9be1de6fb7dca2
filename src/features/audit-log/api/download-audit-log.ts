import { useMutation } from '@tanstack/react-query';
import { ClientResponseError } from 'pocketbase';

import { saveFile } from '@/lib/csv';
import { pb } from '@/lib/pocketbase';

import type { AuditFilter } from '../schemas';
import { auditLogPath, auditQuery } from './audit-log-queries';

/** The file's name: the log and the day it was downloaded (a cross-origin response hides Content-Disposition). */
function fileName(now = new Date()): string {
  const day = `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
  return `audit-log-${day}.csv`;
}

/**
 * Fetches every entry the filter matches as CSV, with the manager's token (a plain link cannot send it), and saves
 * it. The server writes it with the byte-order mark every CSV of the product has (server/internal/platform/csv.go).
 */
export async function downloadAuditLog(companyId: string, filter: AuditFilter): Promise<void> {
  const url = pb.buildURL(auditLogPath(companyId, auditQuery(filter), true));
  let res: Response;
  try {
    res = await fetch(url, { headers: { Authorization: pb.authStore.token } });
  } catch (cause) {
    throw new ClientResponseError({ url, status: 0, originalError: cause });
  }
  if (!res.ok) throw new ClientResponseError({ url, status: res.status, response: (await res.json().catch(() => ({}))) as Record<string, unknown> });
  saveFile(fileName(), await res.blob());
}

/** 'Download CSV' of the audit log, for the filter on screen. */
export function useDownloadAuditLog(companyId: string) {
  return useMutation({ mutationFn: (filter: AuditFilter) => downloadAuditLog(companyId, filter) });
}
