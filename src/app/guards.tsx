import { Navigate, Outlet, useSearchParams } from 'react-router-dom';

import { paths } from '@/config/paths';
import { sessionRestored } from '@/features/auth/api/refresh-session';
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

/**
 * Sign-in, sign-up and reset-password: a signed-in user (including one who just signed in) goes home, or back to
 * where a `?redirect=` link came from (the invite screen sends its visitors to sign in and return). Home is `/`,
 * which decides once the stored session is refreshed: a session stored before the user's first company would
 * otherwise send them to create one.
 */
export function SignedOutOnly() {
  const { user } = useSession();
  const [search] = useSearchParams();
  if (user) return <Navigate to={safeRedirect(search.get('redirect')) ?? paths.home.href()} replace />;
  return <Outlet />;
}

/** Only a path of this app: never another origin ('//evil.example', 'https://...') or a non-path. */
export function safeRedirect(value: string | null): string | null {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  return value;
}

/**
 * `/` decides on the user's primaryCompany, so it waits for the load-time refresh of the stored session: a company
 * chosen or joined elsewhere since the session was stored counts. Later changes arrive through `refreshSession()`.
 */
export async function homeLoader() {
  await sessionRestored();
  return null;
}

/** `/`, behind SignedInOnly: the freshest primaryCompany of the session. */
export function HomeRedirect() {
  const { user } = useSession();
  return <Navigate to={user ? homeHref(user) : paths.auth.signIn.href()} replace />;
}
