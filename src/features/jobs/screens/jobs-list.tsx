import { Badge, Link as RadixLink } from '@radix-ui/themes';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';

import { ArchivedToggle } from '@/components/archived-toggle';
import { RecordListScreen } from '@/components/record-list';
import { paths } from '@/config/paths';

import { jobQueries } from '../api/job-queries';
import { JobRemoval } from '../components/job-removal';

export function JobsListScreen() {
  const { companyId = '' } = useParams();
  // archived jobs (issue 16) are put away: listed only when asked for
  const [showArchived, setShowArchived] = useState(false);
  const query = useQuery({
    ...jobQueries.list(companyId),
    select: (jobs) => (showArchived ? jobs : jobs.filter((job) => !job.archived)),
  });
  return (
    <RecordListScreen
      title="Jobs"
      addLabel="Add Job"
      addHref={paths.companies.jobs.new.href(companyId)}
      emptyText="No jobs yet. Add the first one."
      query={query}
      toolbar={<ArchivedToggle checked={showArchived} onChange={setShowArchived} label="Show archived jobs" />}
      actions={(job) => (
        <>
          {job.archived && <Badge color="gray">Archived</Badge>}
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
