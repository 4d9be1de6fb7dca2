import { Badge } from '@radix-ui/themes';
import { useEffect, useState } from 'react';
import { useIntl } from 'react-intl';

import { secondsLeft } from '../api/open-question';
import { formatSeconds } from '../i18n/format';

const TICK_MS = 250;

/**
 * Seconds left of `seconds`, counted from when `active` last became true (a video take: each take gets the full
 * answer time from when its recording starts), or from `startedAt` (the device's ms) when given: a time that runs on
 * the server's clock from the question's first opening (preparation, a text answer), so a reload resumes with what
 * is left. While inactive it holds its value. Measured against a deadline, so a throttled background tab still ends
 * on time.
 */
export function useCountdown(seconds: number, active: boolean, startedAt?: number): number {
  const fresh = () => (startedAt === undefined ? seconds : secondsLeft(seconds, startedAt));
  const [remaining, setRemaining] = useState(fresh);
  const [wasActive, setWasActive] = useState(active);
  const [wasStartedAt, setWasStartedAt] = useState(startedAt);
  // Restart while rendering, not in an effect: otherwise the first render of a new take still shows the old 0 and
  // whoever watches for 0 would end the new take at once.
  if (active !== wasActive || startedAt !== wasStartedAt) {
    setWasActive(active);
    setWasStartedAt(startedAt);
    if (active) setRemaining(fresh());
  }
  useEffect(() => {
    if (!active) return;
    const deadline = (startedAt ?? Date.now()) + seconds * 1000;
    const timer = setInterval(() => {
      const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
      setRemaining(left);
      if (left === 0) clearInterval(timer);
    }, TICK_MS);
    return () => clearInterval(timer);
  }, [seconds, active, startedAt]);
  return remaining;
}

export function Countdown({ remaining }: { remaining: number }) {
  const intl = useIntl();
  return (
    <Badge
      size="3"
      color={remaining <= 10 ? 'red' : 'gray'}
      role="timer"
      aria-live="off"
      aria-label={intl.formatMessage({ id: 'countdown.left' }, { seconds: remaining })}
    >
      {formatSeconds(intl, remaining)}
    </Badge>
  );
}
