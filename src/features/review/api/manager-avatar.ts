import { pb } from '@/lib/pocketbase';
import type { UsersResponse } from '@/lib/pocketbase-types';

/** A manager's stored avatar as a 100x100 thumbnail, or undefined when there is none. */
export function managerAvatarUrl(user: Pick<UsersResponse, 'id' | 'collectionId' | 'avatar'>): string | undefined {
  return user.avatar ? pb.files.getURL(user, user.avatar, { thumb: '100x100' }) : undefined;
}
