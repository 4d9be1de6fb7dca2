import { describe, expect, it } from 'vitest';

import { fakeAuthToken, signInAs } from '@/testing/session';

import { pb } from './pocketbase';
import { getSession } from './session';

describe('getSession', () => {
  it('keeps the same session through a token refresh that leaves the user as it was (nothing re-renders)', () => {
    const user = signInAs({ firstName: 'Grace' });
    const before = getSession();
    expect(before.user?.firstName).toBe('Grace');

    pb.authStore.save(fakeAuthToken(user.id, { expiresInSeconds: 7200 }), { ...user, expand: {} });
    expect(getSession()).toBe(before);
  });

  it('gives a new session when the user changed, and none after sign-out', () => {
    const user = signInAs({ firstName: 'Grace', primaryCompany: '' });
    const before = getSession();
    pb.authStore.save(fakeAuthToken(user.id), { ...user, primaryCompany: 'c1', expand: {} });
    const after = getSession();
    expect(after).not.toBe(before);
    expect(after.user?.primaryCompany).toBe('c1');

    pb.authStore.clear();
    expect(getSession().user).toBeNull();
  });

  it('ends the session when its token runs out', () => {
    signInAs({}, { expiresInSeconds: -1 });
    expect(getSession().user).toBeNull();
  });
});
