import { Avatar, type AvatarProps } from '@radix-ui/themes';

import type { UsersResponse } from '@/lib/pocketbase-types';

import { avatarUrl } from '../api/avatar-url';

type UserAvatarProps = Omit<AvatarProps, 'src' | 'fallback'> & {
  user: Pick<UsersResponse, 'id' | 'collectionId' | 'avatar' | 'firstName' | 'lastName'>;
};

/** The stored avatar of a user (a thumbnail), else their initials. */
export function UserAvatar({ user, ...props }: UserAvatarProps) {
  const src = avatarUrl(user, { thumb: true });
  const initials = `${user.firstName.charAt(0)}${user.lastName.charAt(0)}`.toUpperCase();
  return <Avatar src={src} fallback={initials} radius="full" alt="" {...props} />;
}
