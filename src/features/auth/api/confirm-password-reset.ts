import { useMutation } from '@tanstack/react-query';

import { pb } from '@/lib/pocketbase';

import type { ConfirmPasswordResetValues } from '../schemas';

export function confirmPasswordReset({ token, password, passwordConfirm }: ConfirmPasswordResetValues & { token: string }) {
  return pb.collection('users').confirmPasswordReset(token, password, passwordConfirm);
}

export function useConfirmPasswordReset() {
  return useMutation({ mutationFn: confirmPasswordReset });
}
