import { useMutation } from '@tanstack/react-query';

import { pb } from '@/lib/pocketbase';

import type { UpdateEmailValues } from '../schemas';

/** Sends the confirmation link to the new address; the change happens when it is followed. */
export function requestEmailChange({ email }: UpdateEmailValues) {
  return pb.collection('users').requestEmailChange(email);
}

export function useRequestEmailChange() {
  return useMutation({ mutationFn: requestEmailChange });
}
