import { afterEach, describe, expect, it, vi } from 'vitest';

import { fakeAuthToken, signInAs } from '@/testing/session';

import { pb } from './pocketbase';
import { keepSessionCookie, SESSION_COOKIE, TIME_ZONE_COOKIE, writeSessionCookie } from './session-cookie';

/** The cookies document.cookie holds (jsdom keeps Path=/companies ones for a page under /companies only). */
function cookies(): Record<string, string> {
  return Object.fromEntries(
    document.cookie
      .split('; ')
      .filter(Boolean)
      .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
  );
}

describe('the session cookie for page loads', () => {
  const start = location.href;
  afterEach(() => {
    pb.authStore.clear();
    history.replaceState(null, '', start);
  });

  it("holds the manager's token on /companies pages, follows a refresh and goes with the sign-out", () => {
    history.replaceState(null, '', '/companies/c1');
    keepSessionCookie();
    const user = signInAs({ id: 'u1' });
    expect(cookies()[SESSION_COOKIE]).toBe(pb.authStore.token);
    expect(cookies()[TIME_ZONE_COOKIE]).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);

    const refreshed = fakeAuthToken(user.id, { expiresInSeconds: 7200 });
    pb.authStore.save(refreshed, { ...user, expand: {} });
    expect(cookies()[SESSION_COOKIE]).toBe(refreshed);

    pb.authStore.clear();
    expect(cookies()[SESSION_COOKIE]).toBeUndefined();
    expect(cookies()[TIME_ZONE_COOKIE]).toBeUndefined();
  });

  it('is not sent to other pages', () => {
    history.replaceState(null, '', '/candidates/some-key');
    signInAs({ id: 'u1' });
    keepSessionCookie();
    expect(cookies()[SESSION_COOKIE]).toBeUndefined();
  });

  it("is never written for a superuser's or an expired session", () => {
    history.replaceState(null, '', '/companies/c1');
    keepSessionCookie();
    pb.authStore.save(fakeAuthToken('s1'), { id: 's1', collectionId: '_pbc_superusers', collectionName: '_superusers' });
    expect(cookies()[SESSION_COOKIE]).toBeUndefined();
    signInAs({ id: 'u1' }, { expiresInSeconds: -5 });
    expect(cookies()[SESSION_COOKIE]).toBeUndefined();
  });

  it('is not written again by a page load when it already holds the session, nor cleared by one without a session', () => {
    history.replaceState(null, '', '/companies/c1');
    signInAs({ id: 'u1' });
    writeSessionCookie();
    const writes = vi.spyOn(document, 'cookie', 'set');
    writeSessionCookie(true);
    expect(writes).not.toHaveBeenCalled();
    // a cookie that says something else (an older token) is written over on the next load
    writes.mockRestore();
    document.cookie = `${SESSION_COOKIE}=older; Path=/companies`;
    const rewrites = vi.spyOn(document, 'cookie', 'set');
    writeSessionCookie(true);
    expect(rewrites).toHaveBeenCalled();
    rewrites.mockRestore();
    expect(cookies()[SESSION_COOKIE]).toBe(pb.authStore.token);

    pb.authStore.clear();
    history.replaceState(null, '', '/candidates/some-key');
    const clears = vi.spyOn(document, 'cookie', 'set');
    writeSessionCookie(true);
    expect(clears).not.toHaveBeenCalled();
    clears.mockRestore();
  });
});
