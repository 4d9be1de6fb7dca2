import { useMutation, useQueryClient } from '@tanstack/react-query';

import { pb } from '@/lib/pocketbase';
import type { CompaniesResponse } from '@/lib/pocketbase-types';

import { companyQueries } from './company-queries';

/**
 * The owner removes a manager from the company (issue 16; decisions.md "Accounts and teams"). The server decides:
 * only the owner removes other managers and nobody removes the owner (server/internal/companies), and the removed
 * manager's access ends with the save, since every rule reads the company's managers.
 */
export function useRemoveManager(companyId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => pb.collection('companies').update<CompaniesResponse>(companyId, { 'managers-': userId }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: companyQueries.all() }),
  });
}
