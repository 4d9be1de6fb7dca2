import { useMutation } from '@tanstack/react-query';

import { pb } from '@/lib/pocketbase';

import type { SignInValues } from '../schemas';

export function signIn({ email, password }: SignInValues) {
  return pb.collection('users').authWithPassword(email, password);
}

/** Stores the session on success; the signed-out-only guard then sends the user home. */
export function useSignIn() {
  return useMutation({ mutationFn: signIn });
}
