import { useMutation } from '@tanstack/react-query';

import { pb } from '@/lib/pocketbase';

/** Sends the verification e-mail again (the server answers the same whether or not the address has an account). */
export function requestVerification(email: string) {
  return pb.collection('users').requestVerification(email);
}

export function useRequestVerification() {
  return useMutation({ mutationFn: requestVerification });
}
