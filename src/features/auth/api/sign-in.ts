import { useMutation } from '@tanstack/react-query';
import { ClientResponseError } from 'pocketbase';

import { pb } from '@/lib/pocketbase';

import type { SignInValues } from '../schemas';

export function signIn({ email, password }: SignInValues) {
  return pb.collection('users').authWithPassword(email, password);
}

/** Stores the session on success; the signed-out-only guard then sends the user home. */
export function useSignIn() {
  return useMutation({ mutationFn: signIn });
}

/**
 * Whether a failed sign-in was refused because the account's e-mail is not confirmed yet. The server refuses only
 * that with 403 (the users authRule `verified = true`), and only once the password was right; a wrong password or
 * an unknown address stays a 400.
 */
export function isUnverifiedAccountError(error: unknown): boolean {
  return error instanceof ClientResponseError && error.status === 403;
}
