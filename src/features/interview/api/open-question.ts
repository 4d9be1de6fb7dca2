import { candidateOptions, pb } from '@/lib/pocketbase';

/** PocketBase's date text ("2026-11-24 13:00:00.000Z") as ms since the epoch; NaN when it is not one. */
export function parseServerTime(text: string): number {
  return Date.parse(text.trim().replace(' ', 'T'));
}

export type OpenedQuestion = { openedAt: string; serverNow: string };

/**
 * The candidate pressed 'View question' (or came back to it): POST /api/screenroom/interviews/{key}/questions/{id}/open
 * (server/internal/interview) records the first opening, once, and answers with it and the server's clock. The question's
 * preparation and text countdown run from that first opening, so a reload or a reopened link never starts afresh.
 */
export function openQuestion(candidateKey: string, questionId: string): Promise<OpenedQuestion> {
  return pb.send<OpenedQuestion>(
    `/api/screenroom/interviews/${encodeURIComponent(candidateKey)}/questions/${encodeURIComponent(questionId)}/open`,
    candidateOptions(candidateKey, { method: 'POST' }),
  );
}

/**
 * When the question was first opened, on this device's clock: the server's openedAt moved by the device's offset
 * from the server's clock (serverNow against the moment its answer arrived), so a device whose clock is wrong still
 * counts down what the server counts. `receivedAt`: Date.now() when the answer arrived.
 */
export function openedOnDeviceClock(opened: OpenedQuestion, receivedAt: number): number {
  const openedAt = parseServerTime(opened.openedAt);
  const serverNow = parseServerTime(opened.serverNow);
  if (Number.isNaN(openedAt) || Number.isNaN(serverNow)) return receivedAt;
  // never in the future: a clock that went back on the server must not give more time than the limit
  return receivedAt - Math.max(0, serverNow - openedAt);
}

/** Seconds left of `limit` counted from `startedAt` (the device's ms) at `now`, whole seconds rounded up. */
export function secondsLeft(limit: number, startedAt: number, now = Date.now()): number {
  return Math.max(0, Math.ceil((startedAt + limit * 1000 - now) / 1000));
}
