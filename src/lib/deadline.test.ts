import { describe, expect, it } from 'vitest';

import {
  adjustmentsText,
  defaultDeadlineValue,
  formatDeadline,
  fromDateTimeLocal,
  invitationState,
  parseServerDate,
  toDateTimeLocal,
} from './deadline';

describe('deadlines as managers see and set them', () => {
  it("formats a deadline as '1 December 2026, 17:00' in the browser's time zone", () => {
    const local = new Date(2026, 11, 1, 17, 0);
    expect(formatDeadline(local.toISOString().replace('T', ' '))).toBe('1 December 2026, 17:00');
    expect(formatDeadline('')).toBe('');
    expect(formatDeadline(undefined)).toBe('');
  });

  it('turns a date-time field value into the ISO text the server stores and back', () => {
    const local = new Date(2031, 0, 15, 9, 30);
    expect(toDateTimeLocal(local)).toBe('2031-01-15T09:30');
    expect(fromDateTimeLocal('2031-01-15T09:30')).toBe(local.toISOString());
    expect(fromDateTimeLocal('')).toBe('');
    expect(fromDateTimeLocal('not a date')).toBe('');
    expect(parseServerDate('2026-12-01 17:00:00.000Z')?.toISOString()).toBe('2026-12-01T17:00:00.000Z');
    expect(parseServerDate('')).toBeNull();
  });

  it("pre-fills an invite's deadline with the job's response time from now, or none", () => {
    const now = new Date(2026, 10, 24, 13, 5);
    expect(defaultDeadlineValue(7, now)).toBe(toDateTimeLocal(new Date(now.getTime() + 7 * 86_400_000)));
    expect(defaultDeadlineValue(0, now)).toBe('');
    expect(defaultDeadlineValue(undefined, now)).toBe('');
  });

  it('names the invitation: withdrawn before anything, then no deadline, open until the deadline, closed after', () => {
    const now = new Date('2026-11-24T13:00:00Z');
    expect(invitationState({ deadline: '2026-11-24 13:00:01.000Z', withdrawn: true }, now)).toEqual({ kind: 'withdrawn' });
    expect(invitationState({ deadline: '' }, now)).toEqual({ kind: 'none' });
    expect(invitationState({ deadline: '2026-11-24 13:00:01.000Z' }, now).kind).toBe('open');
    expect(invitationState({ deadline: '2026-11-24 13:00:00.000Z' }, now).kind).toBe('closed');
  });

  it('says what was granted', () => {
    expect(adjustmentsText('', 0)).toBe('None');
    expect(adjustmentsText(undefined, undefined)).toBe('None');
    expect(adjustmentsText('2', 0)).toBe('2× time');
    expect(adjustmentsText('unlimited', 1)).toBe('No time limit, 1 extra take');
    expect(adjustmentsText('', 3)).toBe('3 extra takes');
  });
});
