import { useParams } from 'react-router-dom';

import { Deferred } from '@/components/deferred';
import { useSignedInUser } from '@/lib/session';

import { UserMenuButton } from './user-menu-button';
import type { UserMenuDropdownProps } from './user-menu-dropdown';

const loadDropdown = () => import('./user-menu-dropdown').then((m) => m.UserMenuDropdown);

/**
 * The shell's menu: Preferences, Manage company (with a company in the route) and Logout. Its button draws with the
 * page; the menu's code follows once the page has painted (src/components/deferred.tsx).
 */
export function UserMenu() {
  const user = useSignedInUser();
  const { companyId } = useParams();
  return (
    <Deferred<Omit<UserMenuDropdownProps, 'defaultOpen'>>
      load={loadDropdown}
      props={{ user, companyId }}
      placeholder={(open) => (
        <UserMenuButton
          user={user}
          aria-haspopup="menu"
          aria-expanded={false}
          onClick={open}
          onKeyDown={(event) => {
            if (event.key === 'ArrowDown') {
              event.preventDefault();
              open();
            }
          }}
        />
      )}
    />
  );
}
