import { useMutation, useQueryClient, type UseMutationOptions } from '@tanstack/react-query';

import { pb } from '@/lib/pocketbase';
import type { ShareLinksResponse } from '@/lib/pocketbase-types';

import { shareLinkQueries } from './share-link-queries';

export type CreateShareLinkInput = { candidateId: string; expiresInDays: number; includeFeedback: boolean };

/** The new link, and its token and URL: shown this once (the server keeps only the token's hash). */
export type CreatedShareLink = { link: ShareLinksResponse; token: string; url: string };

/** POST /api/screenroom/share-links (server/internal/review/share_links.go). */
export function createShareLink({ candidateId, expiresInDays, includeFeedback }: CreateShareLinkInput): Promise<CreatedShareLink> {
  return pb.send<CreatedShareLink>('/api/screenroom/share-links', {
    method: 'POST',
    body: { candidate: candidateId, expiresInDays, includeFeedback },
  });
}

type Options = Omit<UseMutationOptions<CreatedShareLink, Error, CreateShareLinkInput>, 'mutationFn'>;

export function useCreateShareLink(options: Options = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: createShareLink,
    onSuccess: async (created, input, ...rest) => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: shareLinkQueries.list(input.candidateId).queryKey }),
        // the company's list of live links gains it
        queryClient.invalidateQueries({ queryKey: shareLinkQueries.companyLists() }),
      ]);
      await options.onSuccess?.(created, input, ...rest);
    },
  });
}
