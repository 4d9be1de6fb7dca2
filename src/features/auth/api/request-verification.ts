import { useMutation } from '@tanstack/react-query';
import { ClientResponseError } from 'pocketbase';

import { pb } from '@/lib/pocketbase';

/** Sends the verification e-mail again (the server answers the same whether or not the address has an account). */
export function requestVerification(email: string) {
  return pb.collection('users').requestVerification(email);
}

export function useRequestVerification() {
  return useMutation({ mutationFn: requestVerification });
}

/**
 * The seconds this client must wait before asking for another verification e-mail, when the server refused the
 * request for the client's limit (429 with `retryAfter`, server/internal/accounts/verification_resend.go); null for
 * anything else.
 */
export function verificationRetryAfter(error: unknown): number | null {
  if (!(error instanceof ClientResponseError) || error.status !== 429) return null;
  const seconds: unknown = error.response.retryAfter;
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds) : null;
}
