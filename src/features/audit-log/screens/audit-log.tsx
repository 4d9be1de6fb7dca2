import { Button, Code, Flex, Table, Text, VisuallyHidden } from '@radix-ui/themes';
import { useQuery } from '@tanstack/react-query';
import { useParams, useSearchParams } from 'react-router-dom';

import { QueryState } from '@/components/query-state';
import { toast } from '@/components/toast';
import { CompanySettingsLayout } from '@/features/companies/components/company-settings-layout';
import { getErrorMessage } from '@/lib/errors';
import { formatDate } from '@/lib/format-date';
import { nameOrEmail } from '@/lib/person-name';

import { AUDIT_PAGE_SIZE, auditLogQueries, auditQuery, type AuditEntry, type AuditPage } from '../api/audit-log-queries';
import { useDownloadAuditLog } from '../api/download-audit-log';
import { ACTION_LABELS, AuditFilterForm } from '../components/audit-filter-form';
import type { AuditFilter } from '../schemas';

/** Who acted, by the kind the server recorded (audit_log.actorKind), when it is not a manager. */
const ACTOR_KIND_LABELS: Readonly<Record<string, string>> = {
  candidate: 'The candidate (withdrew)',
  retention: 'Retention',
  system: 'System',
};

/**
 * Who acted: the kind of actor the server recorded (a manager by name, a manager whose account is gone as such, the
 * candidate themself, retention, the system). Entries written before the kind was recorded have none: the
 * manager's name, or the retention period, or a deleted account (exports and erasures are a manager's), or for a
 * deletion also the server's administrator (a superuser is no manager).
 */
export function actorLabel(entry: AuditEntry): string {
  const actor = entry.expand?.actor;
  const kind = entry.actorKind ?? '';
  if (kind === 'manager') {
    if (actor) return nameOrEmail(actor);
    // the account still exists but is no longer one this manager may see: someone who left the company
    return entry.actor ? 'A former manager' : 'A deleted account';
  }
  const byKind = ACTOR_KIND_LABELS[kind];
  if (byKind) return byKind;
  if (actor) return nameOrEmail(actor);
  if (entry.action === 'retention_erase') return 'Retention period';
  return entry.action === 'delete' || entry.action === 'job_delete' ? 'An administrator or a deleted account' : 'A deleted account';
}

/** The filter and page in the address (`?actor=&action=&from=&to=&page=`), so a reload or a shared link keeps them. */
function filterOf(params: URLSearchParams): { filter: AuditFilter; page: number } {
  const page = Number(params.get('page'));
  return {
    filter: { actor: params.get('actor') ?? '', action: params.get('action') ?? '', from: params.get('from') ?? '', to: params.get('to') ?? '' },
    page: Number.isInteger(page) && page > 1 ? page : 1,
  };
}

const isFiltered = (filter: AuditFilter) => Object.values(filter).some(Boolean);

/**
 * Company settings, 'Audit log': every export, erasure and deletion of a candidate, read-only, filtered by the
 * server by who acted, the action and a range of days, a page at a time, and downloadable as CSV.
 */
export function AuditLogScreen() {
  const { companyId = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const { filter, page } = filterOf(params);
  const log = useQuery(auditLogQueries.page(companyId, filter, page));
  const download = useDownloadAuditLog(companyId);

  const go = (next: AuditFilter, nextPage = 1) => {
    const query = new URLSearchParams(auditQuery(next));
    if (nextPage > 1) query.set('page', String(nextPage));
    setParams(query);
  };

  return (
    <CompanySettingsLayout companyId={companyId} title="Audit log">
      <Flex direction="column" gap="4">
        <Text as="p" size="2" color="gray">
          Every export, erasure and deletion of a candidate&apos;s data, and every candidate who withdrew and deleted their
          own answers. Nobody can change or remove an entry. A candidate is named by their internal id only: an erased or
          deleted candidate&apos;s e-mail and name are gone. Days are in the company&apos;s time zone.
        </Text>
        <AuditFilterForm companyId={companyId} filter={filter} serverError={log.error} onApply={(next) => go(next)} />
        <QueryState query={log}>
          {(result) => (
            <Flex direction="column" gap="3" aria-busy={log.isPlaceholderData}>
              <Flex justify="between" align="center" gap="3" wrap="wrap">
                <Text size="2" role="status">
                  {summary(result, isFiltered(filter))}
                </Text>
                <Button
                  type="button"
                  variant="soft"
                  loading={download.isPending}
                  disabled={result.totalItems === 0}
                  onClick={() => download.mutate(filter, { onError: (error) => toast.error(getErrorMessage(error)) })}
                >
                  Download CSV
                </Button>
              </Flex>
              {result.items.length === 0 ? null : <Entries entries={result.items} />}
              {result.totalPages > 1 ? (
                <Flex gap="3" align="center" justify="end" asChild>
                  <nav aria-label="Pages of the audit log">
                    <Button type="button" variant="soft" disabled={result.page <= 1} onClick={() => go(filter, result.page - 1)}>
                      Previous
                    </Button>
                    <Text size="2">
                      Page {result.page} of {result.totalPages}
                    </Text>
                    <Button type="button" variant="soft" disabled={result.page >= result.totalPages} onClick={() => go(filter, result.page + 1)}>
                      Next
                    </Button>
                  </nav>
                </Flex>
              ) : null}
            </Flex>
          )}
        </QueryState>
      </Flex>
    </CompanySettingsLayout>
  );
}

function summary(result: AuditPage, filtered: boolean): string {
  if (result.totalItems === 0) return filtered ? 'No entries match this filter.' : 'No exports, erasures or deletions yet.';
  const count = `${result.totalItems.toLocaleString('en')} ${result.totalItems === 1 ? 'entry' : 'entries'}`;
  if (result.totalItems <= AUDIT_PAGE_SIZE) return filtered ? `${count} match this filter.` : `${count}.`;
  const first = (result.page - 1) * result.perPage + 1;
  const last = Math.min(result.page * result.perPage, result.totalItems);
  return `${first}–${last} of ${count}${filtered ? ' matching this filter' : ''}.`;
}

function Entries({ entries }: { entries: AuditEntry[] }) {
  return (
    <Table.Root variant="surface">
      <VisuallyHidden asChild>
        <caption>Audit log entries</caption>
      </VisuallyHidden>
      <Table.Header>
        <Table.Row>
          <Table.ColumnHeaderCell>When</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>Who</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>Action</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>Candidate id</Table.ColumnHeaderCell>
        </Table.Row>
      </Table.Header>
      <Table.Body>
        {entries.map((entry) => (
          <Table.Row key={entry.id}>
            <Table.Cell>{formatDate(entry.created)}</Table.Cell>
            <Table.Cell>{actorLabel(entry)}</Table.Cell>
            <Table.Cell>{ACTION_LABELS[entry.action] ?? entry.action}</Table.Cell>
            <Table.Cell>
              <Code>{entry.candidateId}</Code>
            </Table.Cell>
          </Table.Row>
        ))}
      </Table.Body>
    </Table.Root>
  );
}
