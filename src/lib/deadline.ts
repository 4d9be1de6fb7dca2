import { z } from 'zod';

/**
 * Issue 17 point 5: an invite's deadline as managers see and set it. The server stores a UTC date
 * ('2026-12-01 17:00:00.000Z'); managers read and type it in their own time zone, in a date-time field
 * (`<input type="datetime-local">`, whose value is '2026-12-01T17:00').
 */

/** The server's words for a deadline that is not in the future, which the forms also say before sending it. */
export const DEADLINE_IN_PAST_MESSAGE = 'The deadline must be in the future.';

const DAY_MS = 24 * 60 * 60 * 1000;

/** A PocketBase date (or an ISO string) as a Date; null for an empty or unreadable one. */
export function parseServerDate(value: string | undefined | null): Date | null {
  if (!value) return null;
  const date = new Date(value.replace(' ', 'T'));
  return Number.isNaN(date.getTime()) ? null : date;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A date as a date-time field's value, in the browser's time zone, to the minute ('2026-12-01T17:00'). */
export function toDateTimeLocal(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** A date-time field's value (local time) as the ISO text the server stores; '' for an empty or unreadable value. */
export function fromDateTimeLocal(value: string): string {
  if (!value) return '';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? '' : date.toISOString();
}

/** The deadline an invite sent now starts with: the job's response time from now, or none (''). */
export function defaultDeadlineValue(responseDays: number | undefined, now: Date = new Date()): string {
  if (!responseDays) return '';
  return toDateTimeLocal(new Date(now.getTime() + responseDays * DAY_MS));
}

const deadlineFormat = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hour12: false,
});

/** '1 December 2026, 17:00' (the manager's time zone); '' for an empty date. */
export function formatDeadline(value: string | undefined): string {
  const date = parseServerDate(value);
  if (!date) return '';
  const part = (type: Intl.DateTimeFormatPartTypes) => deadlineFormat.formatToParts(date).find((p) => p.type === type)?.value ?? '';
  return `${part('day')} ${part('month')} ${part('year')}, ${part('hour')}:${part('minute')}`;
}

/** The invite's state as the manager's screens name it. */
export type InvitationState =
  | { kind: 'withdrawn' }
  | { kind: 'none' }
  | { kind: 'open'; deadline: string }
  | { kind: 'closed'; deadline: string };

export function invitationState(
  candidate: { deadline?: string | undefined; withdrawn?: boolean | undefined },
  now: Date = new Date(),
): InvitationState {
  if (candidate.withdrawn) return { kind: 'withdrawn' };
  const deadline = parseServerDate(candidate.deadline);
  if (!deadline) return { kind: 'none' };
  const text = formatDeadline(candidate.deadline);
  return deadline.getTime() <= now.getTime() ? { kind: 'closed', deadline: text } : { kind: 'open', deadline: text };
}

/** Extra time a manager can grant one candidate (candidates.extraTime); '' is none. */
export const EXTRA_TIME_OPTIONS = [
  { value: '', label: 'None' },
  { value: '1.5', label: '1.5× time' },
  { value: '2', label: '2× time' },
  { value: 'unlimited', label: 'No time limit' },
] as const;

export type ExtraTime = (typeof EXTRA_TIME_OPTIONS)[number]['value'];

export const EXTRA_TAKES_MAX = 10;
const EXTRA_TAKES_MESSAGE = `Please enter 0 to ${EXTRA_TAKES_MAX} extra takes`;

/**
 * An invite's deadline as its date-time field holds it ('2026-12-01T17:00', local time; '' for none): when set, in the
 * future, as the server also requires.
 */
export const deadlineFieldSchema = z
  .string()
  .refine((value) => !value || !Number.isNaN(new Date(value).getTime()), 'Please enter a date and time')
  .refine((value) => !value || new Date(value).getTime() > Date.now(), DEADLINE_IN_PAST_MESSAGE);

/** Extra takes granted to one candidate (candidates.extraTakes); an empty field is none. */
export const extraTakesFieldSchema = z
  .union([z.string(), z.number()])
  .transform((value) => (typeof value === 'string' && value.trim() === '' ? 0 : Number(value)))
  .pipe(
    z
      .number({ error: EXTRA_TAKES_MESSAGE })
      .int('Please enter a whole number of takes')
      .min(0, EXTRA_TAKES_MESSAGE)
      .max(EXTRA_TAKES_MAX, EXTRA_TAKES_MESSAGE),
  );

export const extraTimeFieldSchema = z.enum(['', '1.5', '2', 'unlimited']);

/** 'None', or what was granted: '2× time, 2 extra takes'. */
export function adjustmentsText(extraTime: string | undefined, extraTakes: number | undefined): string {
  const parts: string[] = [];
  const time = EXTRA_TIME_OPTIONS.find((option) => option.value && option.value === extraTime);
  if (time) parts.push(time.label);
  if (extraTakes) parts.push(`${extraTakes} extra ${extraTakes === 1 ? 'take' : 'takes'}`);
  return parts.length ? parts.join(', ') : 'None';
}
