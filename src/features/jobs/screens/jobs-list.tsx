import { Link as RadixLink } from '@radix-ui/themes';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router-dom';

import { RecordListScreen } from '@/components/record-list';
import { paths } from '@/config/paths';

import { jobQueries } from '../api/job-queries';

export function JobsListScreen() {
  const { companyId = '' } = useParams();
  return (
    <RecordListScreen
      title="Jobs"
      addLabel="Add Job"
      addHref={paths.companies.jobs.new.href(companyId)}
      emptyText="No jobs yet. Add the first one."
      query={useQuery(jobQueries.list(companyId))}
      actions={(job) => (
        <>
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
        </>
      )}
    />
  );
}
