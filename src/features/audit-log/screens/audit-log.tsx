import { Code, Table } from '@radix-ui/themes';
import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router-dom';

import { CompanySettingsList } from '@/features/companies/components/company-settings-list';
import { formatDate } from '@/lib/format-date';
import { nameOrEmail } from '@/lib/person-name';

import { auditLogQueries, type AuditEntry } from '../api/audit-log-queries';

export const ACTION_LABELS: Readonly<Record<string, string>> = {
  export: 'Exported data',
  erase: 'Erased candidate',
  retention_erase: 'Erased by retention',
  delete: 'Deleted candidate',
  job_delete: 'Deleted with their job',
  withdraw: 'Withdrew and deleted their answers',
};

/** Who acted, by the kind the server records (audit_log.actorKind), when it is not a manager. */
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
  if (kind === 'manager') return actor ? nameOrEmail(actor) : 'A deleted account';
  const byKind = ACTOR_KIND_LABELS[kind];
  if (byKind) return byKind;
  if (actor) return nameOrEmail(actor);
  if (entry.action === 'retention_erase') return 'Retention period';
  return entry.action === 'delete' || entry.action === 'job_delete' ? 'An administrator or a deleted account' : 'A deleted account';
}

/** Company settings, 'Audit log': every export, erasure and deletion of a candidate, read-only. */
export function AuditLogScreen() {
  const { companyId = '' } = useParams();
  const log = useQuery(auditLogQueries.list(companyId));
  return (
    <CompanySettingsList
      companyId={companyId}
      title="Audit log"
      intro={
        <>
          Every export, erasure and deletion of a candidate&apos;s data, and every candidate who withdrew and deleted their
          own answers. Nobody can change or remove an entry. A candidate is named by their internal id only: an erased or
          deleted candidate&apos;s e-mail and name are gone.
        </>
      }
      query={log}
      empty="No exports, erasures or deletions yet."
    >
      {(entries) => (
        <Table.Root variant="surface">
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
      )}
    </CompanySettingsList>
  );
}
