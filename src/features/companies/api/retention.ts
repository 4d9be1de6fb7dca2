import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';

import { pb } from '@/lib/pocketbase';
import type { CompaniesResponse } from '@/lib/pocketbase-types';

import { companyQueries } from './company-queries';

/** The periods a company may keep candidates for, in months (0: forever): server/internal/lifecycle/retention.go. */
export const RETENTION_OPTIONS = [
  { months: 0, label: 'Forever (until you delete them)' },
  { months: 3, label: '3 months' },
  { months: 6, label: '6 months' },
  { months: 12, label: '1 year' },
  { months: 24, label: '2 years' },
  { months: 36, label: '3 years' },
] as const;

/** A candidate the next retention run deletes, and why. */
export type RetentionCandidate = {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  jobId: string;
  jobTitle: string;
  /** job_closed: the job has been closed longer than the period; inactive: no activity for longer than it. */
  reason: 'job_closed' | 'inactive';
  /** When the job was closed, or the last activity (PocketBase's date text). */
  since: string;
};

/** GET /api/screenroom/companies/{id}/retention (server/internal/lifecycle/retention.go): the next run and who it deletes. */
export type RetentionPreview = {
  retentionMonths: number;
  /** '' when no run is scheduled (then `candidates` are those due now). */
  nextRunAt: string;
  count: number;
  /** The first few, oldest reason first. */
  candidates: RetentionCandidate[];
};

export const retentionQuery = (companyId: string) =>
  queryOptions({
    queryKey: [...companyQueries.detail(companyId).queryKey, 'retention'] as const,
    queryFn: ({ signal }) =>
      pb.send<RetentionPreview>(`/api/screenroom/companies/${encodeURIComponent(companyId)}/retention`, { method: 'GET', signal }),
  });

/** Saves the company's retention period; the company and the preview are read again. */
export function useUpdateRetention() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ companyId, retentionMonths }: { companyId: string; retentionMonths: number }) =>
      pb.collection('companies').update<CompaniesResponse>(companyId, { retentionMonths }),
    onSuccess: async (company) => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: companyQueries.detail(company.id).queryKey }),
        queryClient.invalidateQueries({ queryKey: companyQueries.lists() }),
      ]);
    },
  });
}
