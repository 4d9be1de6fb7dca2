import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';

import { companyQueries } from '@/features/companies/api/company-queries';
import { pb } from '@/lib/pocketbase';
import type { CompaniesResponse, ManagerInvitesResponse } from '@/lib/pocketbase-types';

export type InviteWithCompany = ManagerInvitesResponse<{ company?: CompaniesResponse }>;

/** An invite as its invitee sees it (the server lets only managers and the invitee read it). */
export const inviteQueries = {
  all: () => ['manager_invites'] as const,
  details: () => [...inviteQueries.all(), 'detail'] as const,
  detail: (inviteId: string) =>
    queryOptions({
      queryKey: [...inviteQueries.details(), inviteId] as const,
      queryFn: ({ signal }) =>
        pb.collection('manager_invites').getOne<InviteWithCompany>(inviteId, { expand: 'company', signal }),
    }),
};

/** Joins the company in one server transaction (rule 4), then refreshes the session's primaryCompany. */
export async function acceptInvite(inviteId: string): Promise<{ company: string }> {
  const result = await pb.send<{ company: string }>(`/api/screenroom/invites/${encodeURIComponent(inviteId)}/accept`, {
    method: 'POST',
  });
  await pb.collection('users').authRefresh();
  return result;
}

export function useAcceptInvite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: acceptInvite,
    // the user now manages one more company: every company list is stale
    onSuccess: () => queryClient.invalidateQueries({ queryKey: companyQueries.all() }),
  });
}
