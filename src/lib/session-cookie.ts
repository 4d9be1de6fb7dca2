import { pb } from './pocketbase';
import { Collections } from './pocketbase-types';
import { getSession, getSessionExpiry } from './session';

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

/** The value of a cookie this page sees (those of Path=/companies only on a /companies page), else undefined. */
function readCookie(name: string): string | undefined {
  const pair = document.cookie.split('; ').find((entry) => entry.startsWith(`${name}=`));
  return pair?.slice(name.length + 1);
}

/**
 * Writes the two cookies for the session the store holds, or clears them without one. `onLoad`: the write every page
 * load makes leaves cookies that already say the same as they are, and has nothing to clear without a session (a
 * cookie outlives neither its token, by its Max-Age, nor a sign-out, which clears it).
 */
export function writeSessionCookie(onLoad = false): void {
  const { user } = getSession();
  const left = (getSessionExpiry() - Date.now()) / 1000;
  if (user?.collectionName === Collections.Users && Number.isFinite(left) && left > 0) {
    const token = pb.authStore.token;
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    // IANA names ('Europe/Berlin') are cookie-safe as they are; the server checks the same form
    const keptZone = /^[A-Za-z0-9_+\-/]{1,64}$/.test(zone) ? zone : undefined;
    if (onLoad && readCookie(SESSION_COOKIE) === token && readCookie(TIME_ZONE_COOKIE) === keptZone) return;
    document.cookie = cookie(SESSION_COOKIE, token, left);
    if (keptZone) document.cookie = cookie(TIME_ZONE_COOKIE, keptZone, left);
  } else if (!onLoad) {
    document.cookie = cookie(SESSION_COOKIE, '', 0);
    document.cookie = cookie(TIME_ZONE_COOKIE, '', 0);
  }
}

/** Keeps the cookie in step with the session from now on (sign-in, the token's refresh, sign-out, other tabs). */
export function keepSessionCookie(): void {
  writeSessionCookie(true);
  pb.authStore.onChange(() => writeSessionCookie());
}
