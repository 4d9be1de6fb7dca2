import { Button } from '@radix-ui/themes';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'react-router-dom';

import { paths } from '@/config/paths';

import { analyticsQueries } from '../api/analytics-queries';
import { AnalyticsQueryView } from '../components/analytics-view';

/** The hiring funnel over all the company's jobs: linked from the company home (its jobs list). */
export function CompanyAnalyticsScreen() {
  const { companyId = '' } = useParams();
  const queryClient = useQueryClient();
  return (
    <AnalyticsQueryView
      query={useQuery(analyticsQueries.company(companyId))}
      readLatest={() => queryClient.fetchQuery(analyticsQueries.company(companyId, true))}
      companyId={companyId}
      actions={
        <Button asChild variant="soft">
          <Link to={paths.companies.jobs.list.href(companyId)}>Back to the jobs</Link>
        </Button>
      }
    />
  );
}
