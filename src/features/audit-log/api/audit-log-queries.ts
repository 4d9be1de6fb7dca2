import { queryOptions } from '@tanstack/react-query';

import { pb } from '@/lib/pocketbase';
import type { AuditLogResponse, UsersResponse } from '@/lib/pocketbase-types';

/**
 * An audit entry with the manager who acted (absent when the retention cron, the candidate or the system acted, or
 * the account was deleted); `actorKind` says which ('' on entries written before it was recorded).
 */
export type AuditEntry = AuditLogResponse<{ actor?: Pick<UsersResponse, 'id' | 'firstName' | 'lastName' | 'email'> }>;

/** A company's audit log (exports, erasures, deletions, withdrawals), newest first; the server writes it, nobody edits it. */
export const auditLogQueries = {
  all: () => ['audit-log'] as const,
  list: (companyId: string) =>
    queryOptions({
      queryKey: [...auditLogQueries.all(), companyId] as const,
      queryFn: async ({ signal }) =>
        (
          await pb.collection('audit_log').getList<AuditEntry>(1, 200, {
            filter: pb.filter('company = {:companyId}', { companyId }),
            sort: '-created,-id',
            expand: 'actor',
            fields: 'id,company,actor,actorKind,action,candidateId,created,expand.actor.id,expand.actor.firstName,expand.actor.lastName,expand.actor.email',
            skipTotal: true,
            signal,
          })
        ).items,
    }),
};
