import { DropdownMenu } from '@radix-ui/themes';
import { Link, useNavigate } from 'react-router-dom';

import { AppTheme } from '@/components/app-theme';
import { paths } from '@/config/paths';
import type { UsersResponse } from '@/lib/pocketbase-types';

import { useSignOut } from '../api/sign-out';

import { UserMenuButton } from './user-menu-button';

export type UserMenuDropdownProps = {
  user: UsersResponse;
  /** The company in the route, if any: its 'Manage company' item. */
  companyId: string | undefined;
  defaultOpen?: boolean;
};

/** The shell's menu itself (its own chunk: Radix's menu and popper code load after the page's first paint). */
export function UserMenuDropdown({ user, companyId, defaultOpen }: UserMenuDropdownProps) {
  const signOut = useSignOut();
  const navigate = useNavigate();

  return (
    <AppTheme>
      <DropdownMenu.Root defaultOpen={defaultOpen}>
        <DropdownMenu.Trigger>
          <UserMenuButton user={user} />
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
    </AppTheme>
  );
}
