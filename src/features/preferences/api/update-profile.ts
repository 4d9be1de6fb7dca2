import { useMutation } from '@tanstack/react-query';

import { pb } from '@/lib/pocketbase';

import type { ProfileValues } from '../schemas';

export type UpdateProfileResult = { emailChangeRequested: boolean };

/**
 * PATCH users/{id} (multipart when an avatar is chosen); the SDK puts the saved record into the stored session.
 * PocketBase lets only a superuser write `email` directly: a new address goes through the e-mail change request,
 * which the user confirms from the new mailbox.
 */
export async function updateProfile(
  { id, email, firstName, lastName, avatar, completionMails }: ProfileValues,
  currentEmail: string,
): Promise<UpdateProfileResult> {
  await pb
    .collection('users')
    .update(id, { firstName, lastName, completionMailsOff: !completionMails, ...(avatar ? { avatar } : {}) });
  if (email === currentEmail) return { emailChangeRequested: false };
  await pb.collection('users').requestEmailChange(email);
  return { emailChangeRequested: true };
}

export function useUpdateProfile(currentEmail: string) {
  return useMutation({ mutationFn: (values: ProfileValues) => updateProfile(values, currentEmail) });
}
