import type { LoaderFunctionArgs } from 'react-router-dom';

import { companyQueries } from '@/features/companies/api/company-queries';
import { jobQueries, type CompanyJobCounts, type JobListItem } from '@/features/jobs/api/job-queries';
import { Collections, type CompaniesResponse } from '@/lib/pocketbase-types';
import { queryClient } from '@/lib/query-client';
import { getSession } from '@/lib/session';

/**
 * Loaders that start a screen's first reads while its lazy chunks are still downloading, instead of after the
 * screen rendered (React Router runs a route's static loader alongside its `lazy`). They never wait, so nothing
 * renders later than before: the screen's own useQuery picks up the request in flight, or its fresh result.
 * Issue 8: on a throttled phone this takes a round trip and the shell's first render off the company home's LCP.
 */

/** The id of the JSON script element pocketbase/company_home_screen.go writes the company home's reads into. */
export const FIRST_SCREEN_COMPANY_HOME = 'screenroom-company-home';

type CompanyHomeReads = {
  user: string;
  company: string;
  companies: CompaniesResponse[];
  jobs: JobListItem[];
  counts: CompanyJobCounts;
};

/**
 * A company home the server wrote (pocketbase/company_home_screen.go) came with the three reads its screen makes
 * first: they go into the query cache as if just read (fresh for PREFETCHED_FRESH_MS), so the app's first render is
 * the written screen and no request repeats them. Taken once: the element is removed, so a later visit reads anew.
 */
function takeWrittenCompanyHome(userId: string): void {
  const element = document.getElementById(FIRST_SCREEN_COMPANY_HOME);
  if (!element) return;
  element.remove();
  let reads: CompanyHomeReads;
  try {
    reads = JSON.parse(element.textContent ?? '') as CompanyHomeReads;
  } catch {
    return;
  }
  // the session the server saw may not be this tab's any more (a sign-out or another user's sign-in since)
  if (reads.user !== userId) return;
  queryClient.setQueryData(companyQueries.list(userId).queryKey, reads.companies);
  queryClient.setQueryData(jobQueries.list(reads.company).queryKey, reads.jobs);
  queryClient.setQueryData(jobQueries.listCounts(reads.company).queryKey, reads.counts);
}

/** The manager shell's company switcher: the user's companies (only shown with a primary company). */
export function prefetchShell(): null {
  const { user } = getSession();
  if (user?.collectionName === Collections.Users) takeWrittenCompanyHome(user.id);
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
