import { useMutation, useQueryClient, type UseMutationOptions } from '@tanstack/react-query';

import { pb } from '@/lib/pocketbase';
import type { ShareLinksResponse } from '@/lib/pocketbase-types';

import { shareLinkQueries } from './share-link-queries';

export type RevokeShareLinkInput = { linkId: string; candidateId: string };

/** POST /api/screenroom/share-links/{id}/revoke: the link stops working at once; revoking twice changes nothing. */
export function revokeShareLink({ linkId }: RevokeShareLinkInput): Promise<ShareLinksResponse> {
  return pb.send<ShareLinksResponse>(`/api/screenroom/share-links/${encodeURIComponent(linkId)}/revoke`, { method: 'POST' });
}

type Options = Omit<UseMutationOptions<ShareLinksResponse, Error, RevokeShareLinkInput>, 'mutationFn'>;

export function useRevokeShareLink(options: Options = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: revokeShareLink,
    onSuccess: async (link, input, ...rest) => {
      // the row shows 'Revoked' at once; the refetch then confirms it
      queryClient.setQueryData(shareLinkQueries.list(input.candidateId).queryKey, (links) =>
        links?.map((current) => (current.id === link.id ? { ...current, ...link, expand: current.expand } : current)),
      );
      await queryClient.invalidateQueries({ queryKey: shareLinkQueries.list(input.candidateId).queryKey });
      await options.onSuccess?.(link, input, ...rest);
    },
  });
}
