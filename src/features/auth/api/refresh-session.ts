import { ClientResponseError } from 'pocketbase';

import { pb } from '@/lib/pocketbase';
import type { UsersResponse } from '@/lib/pocketbase-types';

/**
 * Reloads the signed-in user from the server into the stored session (primaryCompany, names, avatar...), so the
 * guards and `/` see what the server holds. A session the server no longer accepts (expired token, deleted account,
 * changed password) is cleared: the user is signed out rather than left half signed in. A network failure keeps
 * the session as it is.
 *
 * @returns the fresh user, or null when there is no (longer a) session.
 */
export async function refreshSession(): Promise<UsersResponse | null> {
  if (!pb.authStore.token) return null;
  if (!pb.authStore.isValid) {
    pb.authStore.clear();
    return null;
  }
  try {
    const { record } = await pb.collection('users').authRefresh();
    return record;
  } catch (error) {
    if (error instanceof ClientResponseError && [401, 403, 404].includes(error.status)) {
      pb.authStore.clear();
      return null;
    }
    throw error;
  }
}

let restoring: Promise<void> | undefined;

/** The refresh of the stored session when the app loads; started once, by src/app/router.tsx before the router. */
export function restoreSession(): Promise<void> {
  restoring ??= refreshSession().then(
    () => undefined,
    () => undefined,
  );
  return restoring;
}

/** Waits for the load-time refresh if one was started (routes that decide on the user's data use it). */
export function sessionRestored(): Promise<void> {
  return restoring ?? Promise.resolve();
}
