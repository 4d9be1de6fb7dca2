import { useMutation } from '@tanstack/react-query';

import { pb } from '@/lib/pocketbase';

import type { SignUpValues } from '../schemas';

export type SignUpResult = { email: string; verified: boolean };

/**
 * Spec §4: create the account; a verified one (the server verifies sign-ups through a manager invite, rule 5) is
 * signed in straight away, otherwise a verification e-mail is requested.
 */
export async function signUp({ invite, ...values }: SignUpValues): Promise<SignUpResult> {
  const user = await pb.collection('users').create({
    ...values,
    ...(invite ? { invite } : {}),
    emailVisibility: true,
  });
  if (user.verified) {
    await pb.collection('users').authWithPassword(values.email, values.password);
  } else {
    await pb.collection('users').requestVerification(user.email || values.email);
  }
  return { email: user.email, verified: user.verified };
}

export function useSignUp() {
  return useMutation({ mutationFn: signUp });
}
