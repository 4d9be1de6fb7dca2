import { Badge, Flex, Link as RadixLink } from '@radix-ui/themes';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router-dom';

import { ArchivedToggle } from '@/components/archived-toggle';
import { RecordListScreen, type RecordListColumn } from '@/components/record-list';
import { paths } from '@/config/paths';

import { jobQueries, type CompanyJobCounts, type JobListItem } from '../api/job-queries';
import { JobClosedBadge } from '../components/job-lifecycle';
import { JobRemoval } from '../components/job-removal';

const STATUSES = [
  { key: 'invited', header: 'Invited' },
  { key: 'started', header: 'Started' },
  { key: 'completed', header: 'Completed' },
] as const;

/** The candidates per status, from one request for all the company's jobs; '…' while it loads, '—' if it failed. */
function countColumns(counts: { data?: CompanyJobCounts; isError: boolean }): RecordListColumn<JobListItem>[] {
  return STATUSES.map(({ key, header }) => ({
    header,
    cell: (job) => (counts.data ? String(counts.data.jobs[job.id]?.[key] ?? 0) : counts.isError ? '—' : '…'),
  }));
}

export function JobsListScreen() {
  const { companyId = '' } = useParams();
  // archived jobs (issue 16) are put away: listed only when asked for
  const [showArchived, setShowArchived] = useState(false);
  const query = useQuery({
    ...jobQueries.list(companyId),
    select: (jobs) => (showArchived ? jobs : jobs.filter((job) => !job.archived)),
  });
  const counts = useQuery(jobQueries.listCounts(companyId));
  // the counts are extra: the list stands without them, the reason goes to the console
  useEffect(() => {
    if (counts.error) console.error(counts.error);
  }, [counts.error]);
  return (
    <RecordListScreen
      title="Jobs"
      addLabel="Add Job"
      addHref={paths.companies.jobs.new.href(companyId)}
      emptyText="No jobs yet."
      emptyLabel="Add your first job"
      query={query}
      columns={countColumns(counts)}
      toolbar={
        <Flex justify="between" align="center" gap="3" wrap="wrap">
          <ArchivedToggle checked={showArchived} onChange={setShowArchived} label="Show archived jobs" />
          <RadixLink asChild size="2">
            <Link to={paths.companies.analytics.href(companyId)}>Analytics for all jobs</Link>
          </RadixLink>
        </Flex>
      }
      actions={(job) => (
        <>
          {job.archived && <Badge color="gray">Archived</Badge>}
          <JobClosedBadge closedAt={job.closedAt} />
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
          <JobRemoval job={job} />
        </>
      )}
    />
  );
}
