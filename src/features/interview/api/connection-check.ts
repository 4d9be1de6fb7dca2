import { env } from '@/config/env';
import { CANDIDATE_KEY_HEADER } from '@/lib/pocketbase';

/** What the device check sends: enough to time, small enough for a phone on a poor network (the route takes 1 MB). */
export const CONNECTION_CHECK_BYTES = 384 * 1024;
/**
 * Below this the answers upload slower than they are recorded (1.2 Mbit/s video and 64 kbit/s audio,
 * upload/media-recorder.ts), so they will take longer to send than to record.
 */
export const GOOD_KBITS_PER_SECOND = 1500;
/** A check that takes longer is no verdict of slowness but of no connection at all. */
export const CONNECTION_CHECK_TIMEOUT_MS = 30_000;

export type ConnectionVerdict = 'good' | 'slow' | 'failed';

export function verdictOf(bytes: number, ms: number): Exclude<ConnectionVerdict, 'failed'> {
  const kbits = (bytes * 8) / Math.max(ms, 1);
  return kbits >= GOOD_KBITS_PER_SECOND ? 'good' : 'slow';
}

/**
 * A small timed upload to the server's connection check (server/internal/interview), which stores nothing.
 * `candidateKey`: the link's key, in the path and in the header.
 */
export async function checkConnection(
  candidateKey: string,
  { bytes = CONNECTION_CHECK_BYTES, signal }: { bytes?: number; signal?: AbortSignal } = {},
): Promise<{ verdict: ConnectionVerdict; ms: number | null }> {
  // random bytes: a proxy compressing the body would make the check look faster than an answer's upload
  const body = new Uint8Array(bytes);
  for (let i = 0; i < body.length; i += 65536) crypto.getRandomValues(body.subarray(i, i + 65536));
  // by hand, not AbortSignal.any/timeout: older Safari and Firefox ESR builds lack them
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), CONNECTION_CHECK_TIMEOUT_MS);
  const onAbort = () => controller.abort();
  signal?.addEventListener('abort', onAbort);
  const started = performance.now();
  try {
    const res = await fetch(`${env.apiUrl}/api/screenroom/interviews/${encodeURIComponent(candidateKey)}/connection-check`, {
      method: 'POST',
      headers: { [CANDIDATE_KEY_HEADER]: candidateKey, 'Content-Type': 'application/octet-stream' },
      body,
      signal: controller.signal,
    });
    const ms = performance.now() - started;
    if (!res.ok) return { verdict: 'failed', ms: null };
    return { verdict: verdictOf(bytes, ms), ms };
  } catch (error) {
    if (signal?.aborted) throw error;
    return { verdict: 'failed', ms: null };
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}

export const CONNECTION_TEXT: Record<ConnectionVerdict, string> = {
  good: 'Your connection is good',
  slow: 'Your connection is slow: answers will take longer to send, keep this page open',
  failed: 'We could not reach the server',
};
