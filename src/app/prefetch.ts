import type { LoaderFunctionArgs } from 'react-router-dom';

import { companyQueries } from '@/features/companies/api/company-queries';
import { jobQueries } from '@/features/jobs/api/job-queries';
import { Collections } from '@/lib/pocketbase-types';
import { queryClient } from '@/lib/query-client';
import { getSession } from '@/lib/session';

/**
 * Loaders that start a screen's first reads while its lazy chunks are still downloading, instead of after the
 * screen rendered (React Router runs a route's static loader alongside its `lazy`). They never wait, so nothing
 * renders later than before: the screen's own useQuery picks up the request in flight, or its fresh result.
 * Issue 8: on a throttled phone this takes a round trip and the shell's first render off the company home's LCP.
 */

/** The manager shell's company switcher: the user's companies (only shown with a primary company). */
export function prefetchShell(): null {
  const { user } = getSession();
  if (user?.collectionName === Collections.Users && user.primaryCompany) {
    void queryClient.prefetchQuery(companyQueries.list(user.id));
  }
  return null;
}

/** The company home, its jobs list and their candidates per status (two reads at once, not one after the other). */
export function prefetchJobsList({ params }: Pick<LoaderFunctionArgs, 'params'>): null {
  if (getSession().user && params.companyId) {
    void queryClient.prefetchQuery(jobQueries.list(params.companyId));
    void queryClient.prefetchQuery(jobQueries.listCounts(params.companyId));
  }
  return null;
}
