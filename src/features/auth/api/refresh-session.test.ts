import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { pb } from '@/lib/pocketbase';
import { server } from '@/testing/msw-server';
import { buildUser, fakeAuthToken, signInAs } from '@/testing/session';

import { refreshSession } from './refresh-session';

describe('refreshSession', () => {
  it('stores the fresh record and token from the server', async () => {
    signInAs({ primaryCompany: '' });
    const token = fakeAuthToken('u1', { expiresInSeconds: 7200 });
    server.use(
      http.post('*/api/collections/users/auth-refresh', () =>
        HttpResponse.json({ token, record: buildUser({ primaryCompany: 'c9' }) }),
      ),
    );
    const user = await refreshSession();
    expect(user?.primaryCompany).toBe('c9');
    expect(pb.authStore.token).toBe(token);
    expect((pb.authStore.record as { primaryCompany?: string } | null)?.primaryCompany).toBe('c9');
  });

  it.each([401, 404])('signs out when the server answers %i (deleted or expired account)', async (status) => {
    signInAs();
    server.use(
      http.post('*/api/collections/users/auth-refresh', () =>
        HttpResponse.json({ status, message: 'Nope.', data: {} }, { status }),
      ),
    );
    await expect(refreshSession()).resolves.toBeNull();
    expect(pb.authStore.token).toBe('');
  });

  it('keeps the session when the server cannot be reached', async () => {
    signInAs();
    server.use(http.post('*/api/collections/users/auth-refresh', () => HttpResponse.error()));
    await expect(refreshSession()).rejects.toThrow();
    expect(pb.authStore.isValid).toBe(true);
  });

  it('clears an expired stored session without asking the server', async () => {
    signInAs({}, { expiresInSeconds: -60 });
    await expect(refreshSession()).resolves.toBeNull();
    expect(pb.authStore.token).toBe('');
  });
});
