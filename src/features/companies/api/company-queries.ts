import { queryOptions } from '@tanstack/react-query';

import { pb } from '@/lib/pocketbase';
import { PREFETCHED_FRESH_MS } from '@/lib/query-client';
import type {
  CandidatesResponse,
  CompaniesResponse,
  JobsResponse,
  QuestionsResponse,
  UsersResponse,
} from '@/lib/pocketbase-types';

/** A company as its detail screens read it (spec §7: GET companies/{id} with its jobs and managers). */
export type CompanyDetail = CompaniesResponse<{
  managers?: UsersResponse[];
  jobs_via_company?: JobsResponse<{ questions?: QuestionsResponse[]; candidates_via_job?: CandidatesResponse[] }>[];
}>;

/**
 * The companies' query keys and fetchers, used by hooks, loaders and setQueryData alike.
 * Lists hold only the companies the user manages (the server also lets an invitee view the company it is invited to).
 */
export const companyQueries = {
  all: () => ['companies'] as const,
  lists: () => [...companyQueries.all(), 'list'] as const,
  list: (userId: string) =>
    queryOptions({
      queryKey: [...companyQueries.lists(), userId] as const,
      queryFn: ({ signal }) =>
        pb.collection('companies').getFullList<CompaniesResponse>({
          // "managers.id ?=" rather than "managers ?=": see the access rules' migration
          filter: pb.filter('managers.id ?= {:userId}', { userId }),
          sort: 'name',
          signal,
        }),
      staleTime: PREFETCHED_FRESH_MS,
    }),
  details: () => [...companyQueries.all(), 'detail'] as const,
  detail: (companyId: string) =>
    queryOptions({
      queryKey: [...companyQueries.details(), companyId] as const,
      queryFn: ({ signal }) =>
        pb.collection('companies').getOne<CompanyDetail>(companyId, {
          expand: 'managers',
          signal,
        }),
    }),
};

/** The public URL of a company's logo (or a thumbnail of it). */
export function companyLogoUrl(company: Pick<CompaniesResponse, 'id' | 'collectionId' | 'logo'>, thumb?: string) {
  if (!company.logo) return '';
  return pb.files.getURL(company, company.logo, thumb ? { thumb } : {});
}
