import { useMutation } from '@tanstack/react-query';

import { pb } from '@/lib/pocketbase';

import type { UpdatePasswordValues } from '../schemas';

/**
 * PATCH users/{id} {oldPassword, password, passwordConfirm}. A new password retires every session of the account
 * (PocketBase renews the token key), so this browser signs in again with the new password to stay signed in.
 */
export async function updatePassword({ id, oldPassword, password, passwordConfirm }: UpdatePasswordValues) {
  const user = await pb.collection('users').update(id, { oldPassword, password, passwordConfirm });
  await pb.collection('users').authWithPassword(user.email, password);
}

export function useUpdatePassword() {
  return useMutation({ mutationFn: updatePassword });
}
