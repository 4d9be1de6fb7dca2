import { Button, Flex, Heading, Spinner, Table, Text, VisuallyHidden } from '@radix-ui/themes';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';

import { formatDate } from '@/lib/format-date';

import { LoadError } from './load-error';

type ListedRecord = { id: string; title: string; created: string };

/**
 * A titled list screen (spec §2: 'Jobs', 'Questions'): its title, an add link, and a table Title / Created with
 * each row's links. Pending, load error and empty states included.
 */
export function RecordListScreen<T extends ListedRecord>({
  title,
  addLabel,
  addHref,
  emptyText,
  query,
  actions,
  toolbar,
}: {
  title: string;
  addLabel: string;
  addHref: string;
  emptyText: string;
  query: UseQueryResult<T[]>;
  actions: (record: T) => ReactNode;
  /** Controls above the table (e.g. 'Show archived'). */
  toolbar?: ReactNode;
}) {
  return (
    <Flex direction="column" gap="4">
      <Flex justify="between" align="center">
        <Heading as="h1">{title}</Heading>
        <Button asChild>
          <Link to={addHref}>{addLabel}</Link>
        </Button>
      </Flex>
      {toolbar}

      {query.isPending ? (
        <Spinner size="3" />
      ) : query.isError ? (
        <LoadError error={query.error} />
      ) : query.data.length === 0 ? (
        <Text color="gray">{emptyText}</Text>
      ) : (
        <Table.Root variant="surface">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeaderCell>Title</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>Created</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.ColumnHeaderCell>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {query.data.map((record) => (
              <Table.Row key={record.id}>
                <Table.RowHeaderCell>{record.title}</Table.RowHeaderCell>
                <Table.Cell>{formatDate(record.created)}</Table.Cell>
                <Table.Cell justify="end">
                  <Flex gap="3" justify="end">
                    {actions(record)}
                  </Flex>
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      )}
    </Flex>
  );
}
