import { Button, Text } from '@radix-ui/themes';
import type { ComponentProps } from 'react';

import { ChevronDownIcon } from '@/components/chevron-down-icon';
import type { UsersResponse } from '@/lib/pocketbase-types';

import { UserAvatar } from './user-avatar';

type UserMenuButtonProps = Omit<ComponentProps<'button'>, 'color'> & { user: UsersResponse };

/** The menu's trigger: avatar, name and chevron. Also drawn, unopened, before the menu's code has loaded. */
export function UserMenuButton({ user, ref, ...props }: UserMenuButtonProps) {
  return (
    // a long name is cut short with an ellipsis on a phone rather than widening the page (issue 16)
    <Button ref={ref} variant="ghost" color="gray" size="2" style={{ minWidth: 0, maxWidth: '100%', flexShrink: 1 }} {...props}>
      <UserAvatar user={user} size="1" aria-hidden />
      <Text size="2" weight="medium" truncate>
        {user.firstName} {user.lastName}
      </Text>
      <ChevronDownIcon />
    </Button>
  );
}
