import { Button, Spinner } from '@radix-ui/themes';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router-dom';

import { LoadError } from '@/components/load-error';
import { paths } from '@/config/paths';

import { analyticsQueries } from '../api/analytics-queries';
import { AnalyticsView } from '../components/analytics-view';

/** The hiring funnel over all the company's jobs: linked from the company home (its jobs list). */
export function CompanyAnalyticsScreen() {
  const { companyId = '' } = useParams();
  const query = useQuery(analyticsQueries.company(companyId));
  if (query.isPending) return <Spinner size="3" />;
  if (query.isError) return <LoadError error={query.error} />;
  return (
    <AnalyticsView
      figures={query.data}
      companyId={companyId}
      onRefresh={() => void query.refetch()}
      refreshing={query.isFetching}
      actions={
        <Button asChild variant="soft">
          <Link to={paths.companies.jobs.list.href(companyId)}>Back to the jobs</Link>
        </Button>
      }
    />
  );
}
