import { act, renderHook } from '@testing-library/react';
import { useEffect } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { formatSeconds } from '../i18n/format';
import { englishIntl } from '../i18n/testing';

import { useCountdown } from './interview-countdown';

describe('useCountdown', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('starts at the timeout and goes down by one each second to 0, then stays there', () => {
    const { result } = renderHook(() => useCountdown(3, true));
    expect(result.current).toBe(3);
    act(() => {
      vi.advanceTimersByTime(1000);
    });
    expect(result.current).toBe(2);
    act(() => {
      vi.advanceTimersByTime(1000);
    });
    expect(result.current).toBe(1);
    act(() => {
      vi.advanceTimersByTime(1000);
    });
    expect(result.current).toBe(0);
    act(() => {
      vi.advanceTimersByTime(5000);
    });
    expect(result.current).toBe(0);
  });

  it('holds while inactive and restarts from the full time when active again (a new take)', () => {
    const { result, rerender } = renderHook(({ active }) => useCountdown(10, active), {
      initialProps: { active: true },
    });
    act(() => {
      vi.advanceTimersByTime(4000);
    });
    expect(result.current).toBe(6);
    rerender({ active: false });
    act(() => {
      vi.advanceTimersByTime(3000);
    });
    expect(result.current).toBe(6);
    rerender({ active: true });
    expect(result.current).toBe(10);
    act(() => {
      vi.advanceTimersByTime(1000);
    });
    expect(result.current).toBe(9);
  });

  it('never shows the old 0 to the first render of a restarted countdown (a retake after the time ran out)', () => {
    const seen: number[] = [];
    const { rerender } = renderHook(
      ({ active }) => {
        const value = useCountdown(2, active);
        // What effects (the watcher for 0) see: committed renders only.
        useEffect(() => {
          seen.push(value);
        });
        return value;
      },
      { initialProps: { active: true } },
    );
    act(() => {
      vi.advanceTimersByTime(2000);
    });
    rerender({ active: false });
    seen.length = 0;
    rerender({ active: true });
    expect(seen[0]).toBe(2);
    expect(seen).not.toContain(0);
  });

  it('does not run before it is active', () => {
    const { result } = renderHook(() => useCountdown(5, false));
    act(() => {
      vi.advanceTimersByTime(10_000);
    });
    expect(result.current).toBe(5);
  });
});

describe('formatSeconds', () => {
  it('shows minutes and seconds', () => {
    expect(formatSeconds(englishIntl, 600)).toBe('10:00');
    expect(formatSeconds(englishIntl, 65)).toBe('1:05');
    expect(formatSeconds(englishIntl, 0)).toBe('0:00');
  });
});
