import type { IntlShape } from 'react-intl';

import { parseServerTime } from '../api/open-question';

/**
 * Dates, times, lengths and numbers in the candidate's locale (Intl through react-intl), in the candidate's own time
 * zone: the browser's, since the provider sets none.
 */

/** A day: "24 November 2026"; '' when the server's date cannot be read. */
export function formatDay(intl: IntlShape, serverDate: string): string {
  const ms = parseServerTime(serverDate);
  return Number.isNaN(ms) ? '' : intl.formatDate(ms, { year: 'numeric', month: 'long', day: 'numeric' });
}

/**
 * A moment, with the name of the zone it is told in: "24 November 2026 at 11:00 Central European Standard Time"
 * (a deadline read on a phone in another country must not be off by hours without saying so).
 */
export function formatMoment(intl: IntlShape, serverDate: string): string {
  const ms = parseServerTime(serverDate);
  if (Number.isNaN(ms)) return '';
  return intl.formatDate(ms, {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: 'long',
  });
}

/** A time of day on this device's clock, on the 24-hour clock every catalog's language reads: "14:02". */
export function formatClockTime(intl: IntlShape, ms: number): string {
  return intl.formatTime(ms, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
}

/** A countdown or a length: "1:05", in the locale's digits. */
export function formatSeconds(intl: IntlShape, total: number): string {
  const whole = Math.max(0, Math.round(total));
  const minutes = Math.floor(whole / 60);
  const seconds = whole % 60;
  return `${intl.formatNumber(minutes, { useGrouping: false })}:${intl.formatNumber(seconds, { minimumIntegerDigits: 2 })}`;
}

/** A time in words: "2 minutes", "30 seconds", "1 minute 30 seconds". */
export function durationInWords(intl: IntlShape, total: number): string {
  const whole = Math.max(0, Math.round(total));
  const minutes = Math.floor(whole / 60);
  const seconds = whole % 60;
  if (!minutes) return intl.formatMessage({ id: 'time.seconds' }, { seconds });
  if (!seconds) return intl.formatMessage({ id: 'time.minutes' }, { minutes });
  return intl.formatMessage({ id: 'time.minutesSeconds' }, { minutes, seconds });
}
