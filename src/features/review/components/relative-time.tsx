import { useSyncExternalStore } from 'react';

import { formatDate } from '@/lib/format-date';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const relative = new Intl.RelativeTimeFormat('en-US', { numeric: 'auto' });

/** 'just now', '5 minutes ago', '3 hours ago', 'yesterday'; after a week the date itself. */
export function relativeTime(value: string, now: number): string {
  const time = new Date(value.replace(' ', 'T')).getTime();
  if (Number.isNaN(time)) return value;
  const elapsed = Math.max(0, now - time);
  if (elapsed < MINUTE) return 'just now';
  if (elapsed < HOUR) return relative.format(-Math.floor(elapsed / MINUTE), 'minute');
  if (elapsed < DAY) return relative.format(-Math.floor(elapsed / HOUR), 'hour');
  if (elapsed < 7 * DAY) return relative.format(-Math.floor(elapsed / DAY), 'day');
  return formatDate(value);
}

// One clock for every relative time on the page: the time rounded to 30 s (a stable snapshot between ticks), and a
// timer that makes them read it again every 30 s while any is shown.
const TICK = 30_000;
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | undefined;

const currentTick = () => Math.floor(Date.now() / TICK) * TICK;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  timer ??= setInterval(() => listeners.forEach((each) => each()), TICK);
  return () => {
    listeners.delete(listener);
    if (!listeners.size && timer) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

/** A PocketBase date as '5 minutes ago', with the exact date and time on hover and for machines. */
export function RelativeTime({ value }: { value: string }) {
  const now = useSyncExternalStore(subscribe, currentTick);
  return (
    <time dateTime={value.replace(' ', 'T')} title={formatDate(value)}>
      {relativeTime(value, now)}
    </time>
  );
}
