import { keepPreviousData, queryOptions } from '@tanstack/react-query';

import { pb } from '@/lib/pocketbase';
import type { AuditLogResponse, UsersResponse } from '@/lib/pocketbase-types';

import type { AuditFilter } from '../schemas';

/**
 * An audit entry with the manager who acted (absent when the retention cron, the candidate or the system acted, or
 * the account was deleted); `actorKind` says which ('' on entries written before it was recorded).
 */
export type AuditEntry = AuditLogResponse<{ actor?: Pick<UsersResponse, 'id' | 'firstName' | 'lastName' | 'email'> }>;

/** A page of the log as the server's filtered read answers it (the records API's list shape). */
export type AuditPage = { page: number; perPage: number; totalItems: number; totalPages: number; items: AuditEntry[] };

export const AUDIT_PAGE_SIZE = 50;

/** The filter as the routes' query (only what is set), in a fixed order so one filter is one cache entry. */
export function auditQuery(filter: AuditFilter, page?: number): string {
  const query = new URLSearchParams();
  for (const key of ['actor', 'action', 'from', 'to'] as const) if (filter[key]) query.set(key, filter[key]);
  if (page !== undefined) {
    query.set('page', String(page));
    query.set('perPage', String(AUDIT_PAGE_SIZE));
  }
  return query.toString();
}

/** The server's filtered read of the log (GET /api/screenroom/companies/{id}/audit-log); the CSV is its twin. */
export const auditLogPath = (companyId: string, query: string, csv = false) =>
  `/api/screenroom/companies/${encodeURIComponent(companyId)}/audit-log${csv ? '.csv' : ''}${query ? `?${query}` : ''}`;

/** A company's audit log (exports, erasures, deletions, withdrawals), filtered and paged by the server, newest first. */
export const auditLogQueries = {
  all: () => ['audit-log'] as const,
  lists: (companyId: string) => [...auditLogQueries.all(), companyId] as const,
  page: (companyId: string, filter: AuditFilter, page: number) =>
    queryOptions({
      queryKey: [...auditLogQueries.lists(companyId), auditQuery(filter, page)] as const,
      queryFn: ({ signal }) => pb.send<AuditPage>(auditLogPath(companyId, auditQuery(filter, page)), { method: 'GET', signal }),
      // the page on screen stays while the next one loads, so paging does not flash a spinner
      placeholderData: keepPreviousData,
    }),
};
