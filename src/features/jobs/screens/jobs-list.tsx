import { Button, Flex, Heading, Link as RadixLink, Spinner, Table, Text, VisuallyHidden } from '@radix-ui/themes';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router-dom';

import { paths } from '@/config/paths';
import { LoadError } from '@/components/load-error';
import { formatDate } from '@/lib/format-date';

import { jobQueries } from '../api/job-queries';

export function JobsListScreen() {
  const { companyId = '' } = useParams();
  const jobs = useQuery(jobQueries.list(companyId));

  return (
    <Flex direction="column" gap="4">
      <Flex justify="between" align="center">
        <Heading as="h1">Jobs</Heading>
        <Button asChild>
          <Link to={paths.companies.jobs.new.href(companyId)}>Add Job</Link>
        </Button>
      </Flex>

      {jobs.isPending ? (
        <Spinner size="3" />
      ) : jobs.isError ? (
        <LoadError error={jobs.error} />
      ) : jobs.data.length === 0 ? (
        <Text color="gray">No jobs yet. Add the first one.</Text>
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
            {jobs.data.map((job) => (
              <Table.Row key={job.id}>
                <Table.RowHeaderCell>{job.title}</Table.RowHeaderCell>
                <Table.Cell>{formatDate(job.created)}</Table.Cell>
                <Table.Cell justify="end">
                  <Flex gap="3" justify="end">
                    <RadixLink asChild>
                      <Link to={paths.companies.jobs.edit.href(companyId, job.id)} aria-label={`Edit ${job.title}`}>
                        Edit
                      </Link>
                    </RadixLink>
                    <RadixLink asChild>
                      <Link to={paths.companies.jobs.detail.href(companyId, job.id)} aria-label={`View ${job.title}`}>
                        View
                      </Link>
                    </RadixLink>
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
