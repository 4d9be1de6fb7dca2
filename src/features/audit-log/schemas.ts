import { z } from 'zod';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A day as the date inputs give it (YYYY-MM-DD), or nothing. */
const day = z.string().refine((value) => value === '' || (DAY.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`))), 'Enter a date as YYYY-MM-DD.');

/**
 * The audit log's filter: who acted (a manager's id, or a kind), the action, and a range of days, both included. The
 * server checks the same and answers on the field (server/internal/lifecycle/audit_log_filter.go).
 */
export const auditFilterSchema = z
  .object({ actor: z.string(), action: z.string(), from: day, to: day })
  .refine((filter) => !filter.from || !filter.to || filter.to >= filter.from, {
    path: ['to'],
    message: 'The last day must not be before the first.',
  });

export type AuditFilter = z.infer<typeof auditFilterSchema>;

export const EMPTY_FILTER: AuditFilter = { actor: '', action: '', from: '', to: '' };
