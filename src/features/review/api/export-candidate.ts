import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ClientResponseError } from 'pocketbase';

import { auditLogQueries } from '@/features/audit-log/api/audit-log-queries';
import { pb } from '@/lib/pocketbase';

/** The export route (server/internal/lifecycle/export.go): a zip, for the managers of the candidate's company. */
export const candidateExportPath = (candidateId: string) => `/api/screenroom/candidates/${encodeURIComponent(candidateId)}/export`;

/**
 * Fetches the candidate's export with the manager's token (a plain link cannot send it) and hands it to the browser
 * as a download named candidate-{id}.zip.
 */
export async function downloadCandidateExport(candidateId: string): Promise<void> {
  const url = pb.buildURL(candidateExportPath(candidateId));
  let res: Response;
  try {
    res = await fetch(url, { headers: { Authorization: pb.authStore.token } });
  } catch (cause) {
    throw new ClientResponseError({ url, status: 0, originalError: cause });
  }
  if (!res.ok) throw new ClientResponseError({ url, status: res.status, response: (await res.json().catch(() => ({}))) as Record<string, unknown> });
  const blob = await res.blob();
  const href = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = `candidate-${candidateId}.zip`;
  document.body.append(link);
  link.click();
  link.remove();
  // the download has started from the object URL: release it once the browser has read it
  setTimeout(() => URL.revokeObjectURL(href), 60_000);
}

/** 'Export data' on the review: each export is written to the company's audit log, so its list is refreshed. */
export function useExportCandidate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (candidateId: string) => downloadCandidateExport(candidateId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: auditLogQueries.all() }),
  });
}
