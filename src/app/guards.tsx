import { Navigate, Outlet } from 'react-router-dom';

import { paths } from '@/config/paths';
import type { UsersResponse } from '@/lib/pocketbase-types';
import { useSession } from '@/lib/session';

/** Where a signed-in user belongs: their primary company, or creating their first one. */
export function homeHref(user: UsersResponse): string {
  return user.primaryCompany ? paths.companies.detail.href(user.primaryCompany) : paths.companies.new.href();
}

/** Signed-in only routes; a signed-out visitor (or one whose session just ended) goes to sign-in. */
export function SignedInOnly() {
  const { user } = useSession();
  if (!user) return <Navigate to={paths.auth.signIn.href()} replace />;
  return <Outlet />;
}

/** Sign-in, sign-up and reset-password: a signed-in user (including one who just signed in) goes home. */
export function SignedOutOnly() {
  const { user } = useSession();
  if (user) return <Navigate to={homeHref(user)} replace />;
  return <Outlet />;
}

/** `/`, behind SignedInOnly. */
export function HomeRedirect() {
  const { user } = useSession();
  return <Navigate to={user ? homeHref(user) : paths.auth.signIn.href()} replace />;
}
