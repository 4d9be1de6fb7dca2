import { Button, Spinner } from '@radix-ui/themes';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router-dom';

import { LoadError } from '@/components/load-error';
import { paths } from '@/config/paths';

import { analyticsQueries } from '../api/analytics-queries';
import { AnalyticsView } from '../components/analytics-view';

/** A job's hiring funnel: linked from the job's page. */
export function JobAnalyticsScreen() {
  const { companyId = '', jobId = '' } = useParams();
  const query = useQuery(analyticsQueries.job(jobId));
  if (query.isPending) return <Spinner size="3" />;
  if (query.isError) return <LoadError error={query.error} />;
  return (
    <AnalyticsView
      figures={query.data}
      companyId={companyId}
      onRefresh={() => void query.refetch()}
      refreshing={query.isFetching}
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
