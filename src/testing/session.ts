import { pb } from '@/lib/pocketbase';
import { Collections, type UsersResponse } from '@/lib/pocketbase-types';

function base64(value: object): string {
  return btoa(JSON.stringify(value)).replace(/=+$/, '');
}

/** An unsigned JWT with the claims the SDK reads (`exp`); the server never sees it. */
export function fakeAuthToken(userId: string, { expiresInSeconds = 60 * 60 } = {}): string {
  const exp = Math.floor(Date.now() / 1000) + expiresInSeconds;
  const header = base64({ alg: 'HS256', typ: 'JWT' });
  const payload = base64({ id: userId, type: 'auth', collectionId: '_pb_users_auth_', refreshable: true, exp });
  return `${header}.${payload}.signature`;
}

export function buildUser(overrides: Partial<UsersResponse> = {}): UsersResponse {
  return {
    id: 'u1',
    collectionId: '_pb_users_auth_',
    collectionName: Collections.Users,
    email: 'ada@example.com',
    emailVisibility: true,
    verified: true,
    firstName: 'Ada',
    lastName: 'Lovelace',
    avatar: '',
    primaryCompany: '',
    completionMailsOff: false,
    created: '2024-01-01 00:00:00.000Z',
    updated: '2024-01-01 00:00:00.000Z',
    ...overrides,
  };
}

/** Puts a signed-in session in pb.authStore, as a successful sign-in would. */
export function signInAs(overrides: Partial<UsersResponse> = {}, options?: { expiresInSeconds?: number }) {
  const user = buildUser(overrides);
  pb.authStore.save(fakeAuthToken(user.id, options), { ...user, expand: {} });
  return user;
}
