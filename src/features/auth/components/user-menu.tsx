import { Button, DropdownMenu, Text } from '@radix-ui/themes';
import { Link, useNavigate, useParams } from 'react-router-dom';

import { paths } from '@/config/paths';
import { useSignedInUser } from '@/lib/session';

import { useSignOut } from '../api/sign-out';

import { UserAvatar } from './user-avatar';

/** The shell's menu: Preferences, Manage company (with a company in the route) and Logout. */
export function UserMenu() {
  const user = useSignedInUser();
  const { companyId } = useParams();
  const signOut = useSignOut();
  const navigate = useNavigate();

  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger>
        <Button variant="ghost" color="gray" size="2">
          <UserAvatar user={user} size="1" aria-hidden />
          <Text size="2" weight="medium">
            {user.firstName} {user.lastName}
          </Text>
          <DropdownMenu.TriggerIcon />
        </Button>
      </DropdownMenu.Trigger>
      <DropdownMenu.Content align="end">
        <DropdownMenu.Item asChild>
          <Link to={paths.preferences.profile.href()}>Preferences</Link>
        </DropdownMenu.Item>
        {companyId ? (
          <DropdownMenu.Item asChild>
            <Link to={paths.companies.edit.href(companyId)}>Manage company</Link>
          </DropdownMenu.Item>
        ) : null}
        <DropdownMenu.Separator />
        <DropdownMenu.Item
          color="red"
          onSelect={() => {
            signOut();
            void navigate(paths.auth.signIn.href(), { replace: true });
          }}
        >
          Logout
        </DropdownMenu.Item>
      </DropdownMenu.Content>
    </DropdownMenu.Root>
  );
}
