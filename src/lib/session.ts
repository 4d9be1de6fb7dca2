import { getTokenPayload } from 'pocketbase';
import { useSyncExternalStore } from 'react';

import { pb } from './pocketbase';
import type { UsersResponse } from './pocketbase-types';

export type Session = {
  /** The signed-in user, or null when the store is empty or its token has expired. */
  readonly user: UsersResponse | null;
};

// useSyncExternalStore needs the same object until the store changes, while LocalAuthStore parses localStorage on
// every read: cache the session and re-read it on a change or when the token runs out. A change that leaves the user
// as it was (the token refresh on load, in every tab) keeps the same object, so nothing re-renders for it.
let session: Session | undefined;
let stale = true;
let expiresAt = Number.POSITIVE_INFINITY;

pb.authStore.onChange(() => {
  stale = true;
});

function read(): { session: Session; expiresAt: number } {
  const { token, record } = pb.authStore;
  if (!record || !pb.authStore.isValid) return { session: { user: null }, expiresAt: Number.POSITIVE_INFINITY };
  const exp: unknown = getTokenPayload(token).exp;
  return {
    session: { user: record as UsersResponse },
    expiresAt: typeof exp === 'number' ? exp * 1000 : Number.POSITIVE_INFINITY,
  };
}

export function getSession(): Session {
  if (expiresAt <= Date.now()) stale = true;
  if (!session || stale) {
    const next = read();
    if (!session || JSON.stringify(session.user) !== JSON.stringify(next.session.user)) session = next.session;
    expiresAt = next.expiresAt;
    stale = false;
  }
  return session;
}

function subscribe(onStoreChange: () => void): () => void {
  return pb.authStore.onChange(() => onStoreChange());
}

/** When the current session's token runs out (ms since the epoch); infinite with no session or no expiry in it. */
export function getSessionExpiry(): number {
  getSession();
  return expiresAt;
}

/** The current session; re-renders on sign-in, sign-out and changes made in other tabs. */
export function useSession(): Session {
  return useSyncExternalStore(subscribe, getSession);
}

/** The signed-in user, for components rendered only behind the signed-in guard. */
export function useSignedInUser(): UsersResponse {
  const { user } = useSession();
  if (!user) throw new Error('useSignedInUser() must be used behind the signed-in route guard.');
  return user;
}
