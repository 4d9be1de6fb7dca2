import { Badge } from '@radix-ui/themes';
import { useEffect, useState } from 'react';

const TICK_MS = 250;

/**
 * Seconds left of `seconds`, counted from when `active` last became true (decisions.md: the countdown starts when
 * the answer form opens and each new take restarts it). While inactive it holds its value. Measured against a
 * deadline, so a throttled background tab still ends on time.
 */
export function useCountdown(seconds: number, active: boolean): number {
  const [remaining, setRemaining] = useState(seconds);
  const [wasActive, setWasActive] = useState(active);
  // Restart while rendering, not in an effect: otherwise the first render of a new take still shows the old 0 and
  // whoever watches for 0 would end the new take at once.
  if (active !== wasActive) {
    setWasActive(active);
    if (active) setRemaining(seconds);
  }
  useEffect(() => {
    if (!active) return;
    const deadline = Date.now() + seconds * 1000;
    const timer = setInterval(() => {
      const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
      setRemaining(left);
      if (left === 0) clearInterval(timer);
    }, TICK_MS);
    return () => clearInterval(timer);
  }, [seconds, active]);
  return remaining;
}

export function formatSeconds(total: number): string {
  const minutes = Math.floor(total / 60);
  const seconds = total % 60;
  return `${minutes}:${seconds.toString().padStart(2, '0')}`;
}

export function Countdown({ remaining }: { remaining: number }) {
  return (
    <Badge
      size="3"
      color={remaining <= 10 ? 'red' : 'gray'}
      role="timer"
      aria-live="off"
      aria-label={`${remaining} seconds left`}
    >
      {formatSeconds(remaining)}
    </Badge>
  );
}
