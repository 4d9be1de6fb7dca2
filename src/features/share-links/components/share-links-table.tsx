import { AlertDialog, Badge, Button, Flex, Spinner, Table, Text, VisuallyHidden } from '@radix-ui/themes';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from '@/components/toast';

import { AppTheme } from '@/components/app-theme';
import { LoadError } from '@/components/load-error';
import { GENERIC_ERROR_MESSAGE } from '@/lib/errors';
import { formatDate } from '@/lib/format-date';

import { useRevokeShareLink } from '../api/revoke-share-link';
import { shareLinkQueries, shareLinkStatus, type ShareLink, type ShareLinkStatus } from '../api/share-link-queries';

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

/** The candidate's share links: who made each and when, its expiry, when it was last opened, its status, 'Revoke'. */
export function ShareLinksTable({ candidateId }: { candidateId: string }) {
  const links = useQuery(shareLinkQueries.list(candidateId));
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
          <Table.ColumnHeaderCell>
            <VisuallyHidden>Actions</VisuallyHidden>
          </Table.ColumnHeaderCell>
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
              <Table.Cell justify="end">{status === 'active' && <RevokeButton link={link} candidateId={candidateId} />}</Table.Cell>
            </Table.Row>
          );
        })}
      </Table.Body>
    </Table.Root>
  );
}

function creatorName(link: ShareLink): string {
  const user = link.expand?.createdBy;
  const name = user ? `${user.firstName} ${user.lastName}`.trim() : '';
  return name || 'A former manager';
}

/** 'Revoke', confirmed: whoever holds the link can no longer open it. */
function RevokeButton({ link, candidateId }: { link: ShareLink; candidateId: string }) {
  const [open, setOpen] = useState(false);
  const revoke = useRevokeShareLink();
  const created = formatDate(link.created);
  return (
    <AppTheme>
      <AlertDialog.Root open={open} onOpenChange={setOpen}>
        <AlertDialog.Trigger>
          <Button type="button" size="1" variant="soft" color="red" aria-label={`Revoke the link created on ${created}`}>
            Revoke
          </Button>
        </AlertDialog.Trigger>
        <AlertDialog.Content maxWidth="440px">
          <AlertDialog.Title>Revoke this link?</AlertDialog.Title>
          <AlertDialog.Description size="2">
            Whoever has it can no longer open this candidate&rsquo;s review. This cannot be undone.
          </AlertDialog.Description>
          <Flex gap="3" mt="4" justify="end">
            <AlertDialog.Cancel>
              <Button type="button" variant="soft" color="gray">
                Cancel
              </Button>
            </AlertDialog.Cancel>
            <Button
              type="button"
              color="red"
              loading={revoke.isPending}
              onClick={() =>
                revoke.mutate(
                  { linkId: link.id, candidateId },
                  {
                    onSuccess: () => {
                      setOpen(false);
                      toast.success('Link revoked');
                    },
                    onError: (error) => {
                      console.error('revoking a share link failed', error);
                      toast.error(GENERIC_ERROR_MESSAGE);
                    },
                  },
                )
              }
            >
              Revoke link
            </Button>
          </Flex>
        </AlertDialog.Content>
      </AlertDialog.Root>
    </AppTheme>
  );
}
