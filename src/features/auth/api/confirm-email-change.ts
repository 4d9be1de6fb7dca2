import { useMutation } from '@tanstack/react-query';

import { pb } from '@/lib/pocketbase';

import type { ConfirmEmailChangeValues } from '../schemas';

/** The server retires the old sessions of the account; the SDK clears this browser's if it is that user's. */
export function confirmEmailChange({ token, password }: ConfirmEmailChangeValues & { token: string }) {
  return pb.collection('users').confirmEmailChange(token, password);
}

export function useConfirmEmailChange() {
  return useMutation({ mutationFn: confirmEmailChange });
}
