import { queryOptions } from '@tanstack/react-query';

import { pb } from '@/lib/pocketbase';
import type { ShareLinksResponse, UsersResponse } from '@/lib/pocketbase-types';

/** A candidate's share link with its creator (a fellow manager; absent when they no longer share a company). */
export type ShareLink = ShareLinksResponse<{ createdBy?: UsersResponse }>;

/** A person as the company's list of links names them. */
export type CompanyShareLinkPerson = { id: string; email: string; firstName: string; lastName: string };

/**
 * A live link of the company (GET /api/screenroom/companies/{id}/share-links,
 * server/internal/review/share_links_routes.go): not revoked, not expired, made by one of the company's managers.
 */
export type CompanyShareLink = {
  id: string;
  created: string;
  expiresAt: string;
  includeFeedback: boolean;
  lastOpenedAt: string;
  candidate: CompanyShareLinkPerson;
  job: { id: string; title: string };
  createdBy: CompanyShareLinkPerson;
};

/**
 * The share links of one candidate, newest first, as the managers of its company list them (the collection's list
 * rule; the token's hash is a hidden field the API never returns).
 */
export const shareLinkQueries = {
  all: () => ['share-links'] as const,
  lists: () => [...shareLinkQueries.all(), 'list'] as const,
  list: (candidateId: string) =>
    queryOptions({
      queryKey: [...shareLinkQueries.lists(), candidateId] as const,
      queryFn: ({ signal }) =>
        pb.collection('share_links').getFullList<ShareLink>({
          filter: pb.filter('candidate = {:candidate}', { candidate: candidateId }),
          sort: '-created,id',
          expand: 'createdBy',
          signal,
        }),
    }),
  companyLists: () => [...shareLinkQueries.all(), 'company'] as const,
  /** Every live link of a company, newest first: the company settings' 'Share links'. */
  company: (companyId: string) =>
    queryOptions({
      queryKey: [...shareLinkQueries.companyLists(), companyId] as const,
      queryFn: async ({ signal }) => {
        const answer = await pb.send<{ items: CompanyShareLink[] }>(
          `/api/screenroom/companies/${encodeURIComponent(companyId)}/share-links`,
          { method: 'GET', signal },
        );
        return answer.items;
      },
    }),
};

export type ShareLinkStatus = 'active' | 'expired' | 'revoked';

/** Revoked wins over expired: it is what a manager did, and the link stays revoked whatever its date. */
export function shareLinkStatus(link: Pick<ShareLink, 'revokedAt' | 'expiresAt'>, now = Date.now()): ShareLinkStatus {
  if (link.revokedAt) return 'revoked';
  return new Date(link.expiresAt.replace(' ', 'T')).getTime() > now ? 'active' : 'expired';
}
