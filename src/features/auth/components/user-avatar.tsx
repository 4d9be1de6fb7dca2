import { Avatar, type AvatarProps } from '@radix-ui/themes';

import { pb } from '@/lib/pocketbase';
import type { UsersResponse } from '@/lib/pocketbase-types';

type UserAvatarProps = Omit<AvatarProps, 'src' | 'fallback'> & {
  user: Pick<UsersResponse, 'id' | 'collectionId' | 'avatar' | 'firstName' | 'lastName'>;
};

/** The stored avatar of a user (a thumbnail), else their initials. */
export function UserAvatar({ user, ...props }: UserAvatarProps) {
  const src = user.avatar ? pb.files.getURL(user, user.avatar, { thumb: '100x100' }) : undefined;
  const initials = `${user.firstName.charAt(0)}${user.lastName.charAt(0)}`.toUpperCase();
  return <Avatar src={src} fallback={initials} radius="full" alt="" {...props} />;
}
