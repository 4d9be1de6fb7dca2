import { useCallback, useSyncExternalStore } from 'react';

/** The speeds the review's players offer (issue 15). */
export const PLAYBACK_SPEEDS = [1, 1.25, 1.5, 2] as const;
export type PlaybackSpeed = (typeof PLAYBACK_SPEEDS)[number];

/** Per manager: two managers sharing a browser keep their own speed. */
export const playbackSpeedKey = (userId: string) => `screenroom.review.playbackSpeed.${userId}`;

const listeners = new Set<() => void>();
/** This page's choice, for a browser that refuses storage. */
const chosen = new Map<string, PlaybackSpeed>();

function read(userId: string): PlaybackSpeed {
  let stored: string | null = null;
  try {
    stored = window.localStorage.getItem(playbackSpeedKey(userId));
  } catch {
    // storage blocked (a privacy setting)
  }
  const value = Number(stored);
  if (stored !== null && (PLAYBACK_SPEEDS as readonly number[]).includes(value)) return value as PlaybackSpeed;
  return chosen.get(userId) ?? 1;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // another tab of the same manager changed it
  window.addEventListener('storage', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', listener);
  };
}

/** The signed-in manager's playback speed for answer videos, remembered in this browser; every player follows it. */
export function usePlaybackSpeed(userId: string): [PlaybackSpeed, (speed: PlaybackSpeed) => void] {
  const speed = useSyncExternalStore(subscribe, () => read(userId));
  const setSpeed = useCallback(
    (next: PlaybackSpeed) => {
      chosen.set(userId, next);
      try {
        window.localStorage.setItem(playbackSpeedKey(userId), String(next));
      } catch {
        // remembered for this page only
      }
      listeners.forEach((listener) => listener());
    },
    [userId],
  );
  return [speed, setSpeed];
}

/** 1×, 1.25×, 1.5×, 2× */
export function formatSpeed(speed: number): string {
  return `${speed}×`;
}
