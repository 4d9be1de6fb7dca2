import { useMutation } from '@tanstack/react-query';

import { pb } from '@/lib/pocketbase';

import type { SignUpValues } from '../schemas';
import { requestVerification, verificationRetryAfter } from './request-verification';

/**
 * `mailRefused`: the account exists but its verification e-mail was not sent (the server's limit, or any other
 * failure), with the seconds to wait before another can be asked for when the server said so.
 */
export type SignUpResult = {
  email: string;
  verified: boolean;
  mailRefused?: { retryAfterSeconds: number | null };
};

/**
 * Spec §4: create the account; a verified one (the server verifies sign-ups through a manager invite, rule 5) is
 * signed in straight away, otherwise a verification e-mail is requested. The sign-up succeeded once the account
 * exists: a refused e-mail (security round three: the per-client mail limit, an office behind one address) is
 * reported in the result for 'Check your inbox' and its resend, never as a failed sign-up.
 */
export async function signUp({ invite, ...values }: SignUpValues): Promise<SignUpResult> {
  const user = await pb.collection('users').create({
    ...values,
    ...(invite ? { invite } : {}),
    emailVisibility: true,
  });
  const email = user.email || values.email;
  if (user.verified) {
    await pb.collection('users').authWithPassword(values.email, values.password);
    return { email, verified: true };
  }
  try {
    await requestVerification(email);
  } catch (error) {
    console.error(error);
    return { email, verified: false, mailRefused: { retryAfterSeconds: verificationRetryAfter(error) } };
  }
  return { email, verified: false };
}

export function useSignUp() {
  return useMutation({ mutationFn: signUp });
}
