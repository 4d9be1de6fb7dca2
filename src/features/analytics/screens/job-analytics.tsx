import { Button } from '@radix-ui/themes';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'react-router-dom';

import { paths } from '@/config/paths';

import { analyticsQueries } from '../api/analytics-queries';
import { AnalyticsQueryView } from '../components/analytics-view';

/** A job's hiring funnel: linked from the job's page. */
export function JobAnalyticsScreen() {
  const { companyId = '', jobId = '' } = useParams();
  const queryClient = useQueryClient();
  return (
    <AnalyticsQueryView
      query={useQuery(analyticsQueries.job(jobId))}
      readLatest={() => queryClient.fetchQuery(analyticsQueries.job(jobId, true))}
      companyId={companyId}
      actions={
        <>
          <Button asChild variant="soft">
            <Link to={paths.companies.analytics.href(companyId)}>All jobs</Link>
          </Button>
          <Button asChild variant="soft">
            <Link to={paths.companies.jobs.detail.href(companyId, jobId)}>Back to the job</Link>
          </Button>
        </>
      }
    />
  );
}
