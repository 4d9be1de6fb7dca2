import { Badge, Spinner, Table, Text, VisuallyHidden } from '@radix-ui/themes';
import { useQuery } from '@tanstack/react-query';

import { ActionsHeaderCell } from '@/components/actions-header-cell';
import { LoadError } from '@/components/load-error';
import { formatDate } from '@/lib/format-date';
import { fullName } from '@/lib/person-name';

import { useMayRevokeShareLink } from '../api/revoke-share-link';
import { shareLinkQueries, shareLinkStatus, type ShareLink, type ShareLinkStatus } from '../api/share-link-queries';

import { RevokeLinkButton } from './revoke-link-button';

/** Each status's badge; the colours written out, so the manager shell's stylesheet keeps their scales (colors(auto)). */
function StatusBadge({ status }: { status: ShareLinkStatus }) {
  if (status === 'active') {
    // high contrast: the soft green text falls short of WCAG AA on its own background
    return (
      <Badge color="green" highContrast>
        Active
      </Badge>
    );
  }
  if (status === 'expired') return <Badge color="gray">Expired</Badge>;
  return <Badge color="red">Revoked</Badge>;
}

/**
 * The candidate's share links: who made each and when, its expiry, when it was last opened, its status, 'Revoke' (on
 * an active link the user may revoke: the company's owner any, another manager their own).
 */
export function ShareLinksTable({ companyId, candidateId }: { companyId: string; candidateId: string }) {
  const links = useQuery(shareLinkQueries.list(candidateId));
  const mayRevoke = useMayRevokeShareLink(companyId);
  if (links.isPending) return <Spinner size="2" />;
  if (links.isError) return <LoadError error={links.error} />;
  if (links.data.length === 0) {
    return (
      <Text size="2" color="gray">
        No links yet
      </Text>
    );
  }
  const now = Date.now();
  return (
    <Table.Root variant="surface" size="1">
      <VisuallyHidden asChild>
        <caption>Share links</caption>
      </VisuallyHidden>
      <Table.Header>
        <Table.Row>
          <Table.ColumnHeaderCell>Created by</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>Created on</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>Expires</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>Last opened</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>Status</Table.ColumnHeaderCell>
          <ActionsHeaderCell />
        </Table.Row>
      </Table.Header>
      <Table.Body>
        {links.data.map((link) => {
          const status = shareLinkStatus(link, now);
          return (
            <Table.Row key={link.id}>
              <Table.RowHeaderCell>{creatorName(link)}</Table.RowHeaderCell>
              <Table.Cell>{formatDate(link.created)}</Table.Cell>
              <Table.Cell>{formatDate(link.expiresAt)}</Table.Cell>
              <Table.Cell>{link.lastOpenedAt ? formatDate(link.lastOpenedAt) : 'Never'}</Table.Cell>
              <Table.Cell>
                <StatusBadge status={status} />
              </Table.Cell>
              <Table.Cell justify="end">
                {status === 'active' && mayRevoke(link.createdBy) && (
                  <RevokeLinkButton
                    linkId={link.id}
                    candidateId={candidateId}
                    label={`Revoke the link created on ${formatDate(link.created)}`}
                  />
                )}
              </Table.Cell>
            </Table.Row>
          );
        })}
      </Table.Body>
    </Table.Root>
  );
}

function creatorName(link: ShareLink): string {
  const user = link.expand?.createdBy;
  const name = user ? fullName(user) : '';
  return name || 'A former manager';
}
