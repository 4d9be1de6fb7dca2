import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';

import { pb } from '@/lib/pocketbase';
import type { ManagerInvitesResponse } from '@/lib/pocketbase-types';

/** Pending manager invites of a company, newest first. */
export const managerInviteQueries = {
  all: () => ['manager_invites'] as const,
  lists: () => [...managerInviteQueries.all(), 'list'] as const,
  list: (companyId: string) =>
    queryOptions({
      queryKey: [...managerInviteQueries.lists(), companyId] as const,
      queryFn: ({ signal }) =>
        pb.collection('manager_invites').getFullList<ManagerInvitesResponse>({
          filter: pb.filter('company = {:companyId}', { companyId }),
          sort: '-created',
          signal,
        }),
    }),
};

export function useInviteManager(companyId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    // the server refuses a current manager or a second pending invite (rule 3) and sends the e-mail
    mutationFn: (email: string) =>
      pb.collection('manager_invites').create<ManagerInvitesResponse>({ company: companyId, email }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: managerInviteQueries.list(companyId).queryKey }),
  });
}

export function useRevokeInvite(companyId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (inviteId: string) => pb.collection('manager_invites').delete(inviteId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: managerInviteQueries.list(companyId).queryKey }),
  });
}
