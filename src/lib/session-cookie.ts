import { getTokenPayload } from 'pocketbase';

import { pb } from './pocketbase';

/**
 * A copy of the manager's session token for page loads of the company home (issue 20 point 2): a page load carries
 * no Authorization header, and with this cookie the server can write the signed-in company home into the page
 * (pocketbase/company_home_screen.go checks the token as the API does). Only for `/companies` pages, never sent by
 * another site (SameSite=Strict), Secure over https, and gone with the session (sign-out, expiry). `sr_tz`, the
 * browser's time zone, lets the server write the jobs' dates as the app does.
 */
export const SESSION_COOKIE = 'sr_session';
export const TIME_ZONE_COOKIE = 'sr_tz';

/** `value`: cookie-safe characters only (a token's base64url, a time zone's name). */
function cookie(name: string, value: string, maxAgeSeconds: number): string {
  const secure = location.protocol === 'https:' ? '; Secure' : '';
  return `${name}=${value}; Path=/companies; Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}; SameSite=Strict${secure}`;
}

export function writeSessionCookie(): void {
  const { token, record } = pb.authStore;
  const exp: unknown = token ? getTokenPayload(token).exp : undefined;
  const left = typeof exp === 'number' ? exp - Date.now() / 1000 : 0;
  if (record?.collectionName === 'users' && pb.authStore.isValid && left > 0) {
    document.cookie = cookie(SESSION_COOKIE, token, left);
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    // IANA names ('Europe/Berlin') are cookie-safe as they are; the server checks the same form
    if (/^[A-Za-z0-9_+\-/]{1,64}$/.test(zone)) document.cookie = cookie(TIME_ZONE_COOKIE, zone, left);
  } else {
    document.cookie = cookie(SESSION_COOKIE, '', 0);
    document.cookie = cookie(TIME_ZONE_COOKIE, '', 0);
  }
}

/** Keeps the cookie in step with the session from now on (sign-in, the token's refresh, sign-out, other tabs). */
export function keepSessionCookie(): void {
  writeSessionCookie();
  pb.authStore.onChange(writeSessionCookie);
}
