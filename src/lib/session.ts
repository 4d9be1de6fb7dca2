import { getTokenPayload } from 'pocketbase';
import { useSyncExternalStore } from 'react';

import { pb } from './pocketbase';
import type { UsersResponse } from './pocketbase-types';

export type Session = {
  /** The signed-in user, or null when the store is empty or its token has expired. */
  readonly user: UsersResponse | null;
};

type Snapshot = Session & { readonly expiresAt: number };

// useSyncExternalStore needs the same object until the store changes, while LocalAuthStore parses
// localStorage on every read: cache the snapshot and drop it on change or when the token runs out.
let snapshot: Snapshot | undefined;

pb.authStore.onChange(() => {
  snapshot = undefined;
});

function readSnapshot(): Snapshot {
  const { token, record } = pb.authStore;
  if (!record || !pb.authStore.isValid) return { user: null, expiresAt: Number.POSITIVE_INFINITY };
  const exp: unknown = getTokenPayload(token).exp;
  return {
    user: record as UsersResponse,
    expiresAt: typeof exp === 'number' ? exp * 1000 : Number.POSITIVE_INFINITY,
  };
}

export function getSession(): Session {
  if (snapshot && snapshot.expiresAt <= Date.now()) snapshot = undefined;
  snapshot ??= readSnapshot();
  return snapshot;
}

function subscribe(onStoreChange: () => void): () => void {
  return pb.authStore.onChange(() => onStoreChange());
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
