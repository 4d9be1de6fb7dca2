import { Button, Flex, Heading, Link as RadixLink, Spinner, Table, Text } from '@radix-ui/themes';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';

import { formatDate } from '@/lib/format-date';

import { ActionsHeaderCell } from './actions-header-cell';
import { LoadError } from './load-error';

type ListedRecord = { id: string; title: string; created: string };

/** A column between Title and Created (issue 16: a question's kind and times, a job's candidates per status). */
export type RecordListColumn<T> = { header: string; cell: (record: T) => ReactNode };

/**
 * A titled list screen (spec §2: 'Jobs', 'Questions'): its title, an add link, and a table Title / (columns) / Created
 * with each row's links. Pending, load error and empty states included; the empty state is a link to the next step
 * (issue 16: 'Add your first question'). The table scrolls inside its own box on a narrow screen (Radix's Table.Root
 * wraps it in a scroll area), so the page never does.
 */
export function RecordListScreen<T extends ListedRecord>({
  title,
  addLabel,
  addHref,
  emptyText,
  emptyLabel,
  query,
  columns = [],
  actions,
  toolbar,
}: {
  title: string;
  addLabel: string;
  addHref: string;
  emptyText: string;
  /** The empty list's link to addHref, e.g. 'Add your first question'. */
  emptyLabel: string;
  query: UseQueryResult<T[]>;
  columns?: RecordListColumn<T>[];
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
        <Text color="gray">
          {emptyText}{' '}
          <RadixLink asChild>
            <Link to={addHref}>{emptyLabel}</Link>
          </RadixLink>
        </Text>
      ) : (
        <Table.Root variant="surface">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeaderCell>Title</Table.ColumnHeaderCell>
              {columns.map((column) => (
                <Table.ColumnHeaderCell key={column.header}>{column.header}</Table.ColumnHeaderCell>
              ))}
              <Table.ColumnHeaderCell>Created</Table.ColumnHeaderCell>
              <ActionsHeaderCell />
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {query.data.map((record) => (
              <Table.Row key={record.id}>
                <Table.RowHeaderCell>{record.title}</Table.RowHeaderCell>
                {columns.map((column) => (
                  <Table.Cell key={column.header}>{column.cell(record)}</Table.Cell>
                ))}
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
