import { useMutation } from '@tanstack/react-query';

import { pb } from '@/lib/pocketbase';

import type { ResetPasswordValues } from '../schemas';

export function requestPasswordReset({ email }: ResetPasswordValues) {
  return pb.collection('users').requestPasswordReset(email);
}

export function useRequestPasswordReset() {
  return useMutation({ mutationFn: requestPasswordReset });
}
