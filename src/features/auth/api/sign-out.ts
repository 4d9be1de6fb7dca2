import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';

import { pb } from '@/lib/pocketbase';

/** Clears the stored session (other tabs follow through the storage event) and everything cached for the user. */
export function useSignOut() {
  const queryClient = useQueryClient();
  return useCallback(() => {
    pb.authStore.clear();
    queryClient.clear();
  }, [queryClient]);
}
