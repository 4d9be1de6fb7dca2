import { useMutation, useQuery, useQueryClient, type UseMutationOptions } from '@tanstack/react-query';

import { companyQueries } from '@/features/companies/api/company-queries';
import { pb } from '@/lib/pocketbase';
import type { ShareLinksResponse } from '@/lib/pocketbase-types';
import { useSignedInUser } from '@/lib/session';

import { shareLinkQueries, type CompanyShareLink } from './share-link-queries';

export type RevokeShareLinkInput = { linkId: string; candidateId: string };

/**
 * POST /api/screenroom/share-links/{id}/revoke: the link stops working at once; revoking twice changes nothing. The
 * company's owner revokes any of its links, another manager only the links they made (the server refuses the rest).
 */
export function revokeShareLink({ linkId }: RevokeShareLinkInput): Promise<ShareLinksResponse> {
  return pb.send<ShareLinksResponse>(`/api/screenroom/share-links/${encodeURIComponent(linkId)}/revoke`, { method: 'POST' });
}

/** Whether the signed-in user may revoke a link of the company made by `makerId`: its owner any, others their own. */
export function useMayRevokeShareLink(companyId: string): (makerId: string) => boolean {
  const user = useSignedInUser();
  // the switcher's list of the user's companies, read already by the shell: it names each company's owner
  const companies = useQuery(companyQueries.list(user.id));
  const isOwner = companies.data?.some((company) => company.id === companyId && company.owner === user.id) ?? false;
  return (makerId) => isOwner || makerId === user.id;
}

type Options = Omit<UseMutationOptions<ShareLinksResponse, Error, RevokeShareLinkInput>, 'mutationFn'>;

export function useRevokeShareLink(options: Options = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: revokeShareLink,
    onSuccess: async (link, input, ...rest) => {
      // the candidate's list shows it 'Revoked' at once, the company's list of live links drops it; refetches confirm
      queryClient.setQueryData(shareLinkQueries.list(input.candidateId).queryKey, (links) =>
        links?.map((current) => (current.id === link.id ? { ...current, ...link, expand: current.expand } : current)),
      );
      queryClient.setQueriesData<CompanyShareLink[]>({ queryKey: shareLinkQueries.companyLists() }, (links) =>
        links?.filter((current) => current.id !== link.id),
      );
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: shareLinkQueries.list(input.candidateId).queryKey }),
        queryClient.invalidateQueries({ queryKey: shareLinkQueries.companyLists() }),
      ]);
      await options.onSuccess?.(link, input, ...rest);
    },
  });
}
