import { useMutation } from '@tanstack/react-query';

import { pb } from '@/lib/pocketbase';

import { refreshSession } from './refresh-session';

/** Confirms the address of the e-mailed token; a session of that user in this browser picks up `verified`. */
export async function confirmVerification(token: string) {
  await pb.collection('users').confirmVerification(token);
  await refreshSession().catch(() => null);
}

export function useConfirmVerification() {
  return useMutation({ mutationFn: confirmVerification });
}
