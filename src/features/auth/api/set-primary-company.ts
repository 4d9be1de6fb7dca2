import { useMutation } from '@tanstack/react-query';

import { pb } from '@/lib/pocketbase';

import { refreshSession } from './refresh-session';

type SetPrimaryCompanyVariables = { userId: string; companyId: string };

/**
 * Saves the company the user works in, so `/` returns there (decisions.md). The server only accepts a company the
 * user manages (rule 2). The stored session is refreshed afterwards: the guards read primaryCompany from it.
 */
export async function setPrimaryCompany({ userId, companyId }: SetPrimaryCompanyVariables) {
  await pb.collection('users').update(userId, { primaryCompany: companyId });
  await refreshSession();
}

export function useSetPrimaryCompany() {
  return useMutation({ mutationFn: setPrimaryCompany });
}
