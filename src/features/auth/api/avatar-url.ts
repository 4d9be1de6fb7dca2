import { pb } from '@/lib/pocketbase';
import type { UsersResponse } from '@/lib/pocketbase-types';

type AvatarOwner = Pick<UsersResponse, 'id' | 'collectionId' | 'avatar'>;

/** The URL of a user's stored avatar (its 100x100 thumbnail with `thumb`), or undefined when there is none. */
export function avatarUrl(user: AvatarOwner, { thumb = false }: { thumb?: boolean } = {}): string | undefined {
  return user.avatar ? pb.files.getURL(user, user.avatar, thumb ? { thumb: '100x100' } : {}) : undefined;
}
