import { env } from '@/config/env';
import { CANDIDATE_KEY_HEADER } from '@/lib/pocketbase';

import { AUDIO_BITS_PER_SECOND, VIDEO_BITS_PER_SECOND } from '../upload/media-recorder';

/**
 * What the device check sends each time: large enough that the request's own overhead (its start, a busy server's
 * pause before reading) is small beside its bytes, and under the route's 1 MB (server platform.ConnectionCheckMaxBytes).
 */
export const CONNECTION_CHECK_BYTES = 1000 * 1024;
/** The bytes a second an answer is recorded at: the recorder's own bitrates (upload/media-recorder.ts). */
export const RECORDING_BYTES_PER_SECOND = (VIDEO_BITS_PER_SECOND + AUDIO_BITS_PER_SECOND) / 8;
/**
 * An answer's parts are sent while it records; this much faster than the recording keeps them from piling up
 * (the container's own bytes, each part's request, a connection that varies).
 */
export const UPLOAD_HEADROOM = 1.25;
/** The upload rate an answer needs: below it the answers take longer to send than to record. */
export const NEEDED_BYTES_PER_SECOND = RECORDING_BYTES_PER_SECOND * UPLOAD_HEADROOM;
/** How many timed uploads at most: the best counts, so one slow moment (a busy device, a stall) is no verdict. */
export const CONNECTION_CHECK_TRIES = 2;
/** An upload that takes longer is cut off: its bytes over this time bound its rate from above. */
export const CONNECTION_CHECK_TIMEOUT_MS = 30_000;

export type ConnectionVerdict = 'good' | 'slow' | 'failed';

export function verdictOf(bytesPerSecond: number, needed = NEEDED_BYTES_PER_SECOND): Exclude<ConnectionVerdict, 'failed'> {
  return bytesPerSecond >= needed ? 'good' : 'slow';
}

type Timed = { kind: 'sent'; bytesPerSecond: number } | { kind: 'refused' } | { kind: 'unreachable' } | { kind: 'timeout'; bytesPerSecond: number };

/** One timed upload: its bytes over the time from sending to the server's answer. */
async function timedUpload(candidateKey: string, body: Uint8Array<ArrayBuffer>, now: () => number, signal?: AbortSignal): Promise<Timed> {
  // by hand, not AbortSignal.any/timeout: older Safari and Firefox ESR builds lack them
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, CONNECTION_CHECK_TIMEOUT_MS);
  const onAbort = () => controller.abort();
  signal?.addEventListener('abort', onAbort);
  const started = now();
  try {
    const res = await fetch(`${env.apiUrl}/api/screenroom/interviews/${encodeURIComponent(candidateKey)}/connection-check`, {
      method: 'POST',
      headers: { [CANDIDATE_KEY_HEADER]: candidateKey, 'Content-Type': 'application/octet-stream' },
      body,
      signal: controller.signal,
    });
    const seconds = Math.max(now() - started, 1) / 1000;
    if (!res.ok) return { kind: 'refused' };
    return { kind: 'sent', bytesPerSecond: body.byteLength / seconds };
  } catch (error) {
    if (signal?.aborted) throw error;
    if (timedOut) return { kind: 'timeout', bytesPerSecond: body.byteLength / (CONNECTION_CHECK_TIMEOUT_MS / 1000) };
    return { kind: 'unreachable' };
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}

/**
 * Timed uploads to the server's connection check (server/internal/interview), which stores nothing, judged by what
 * an answer needs (NEEDED_BYTES_PER_SECOND): 'good' as soon as one is fast enough, else the best of
 * CONNECTION_CHECK_TRIES decides. 'failed' when none reached the server or the server refused it.
 * `candidateKey`: the link's key, in the path and in the header.
 */
export async function checkConnection(
  candidateKey: string,
  {
    bytes = CONNECTION_CHECK_BYTES,
    needed = NEEDED_BYTES_PER_SECOND,
    signal,
    now = () => performance.now(),
  }: { bytes?: number; needed?: number; signal?: AbortSignal; now?: () => number } = {},
): Promise<{ verdict: ConnectionVerdict; bytesPerSecond: number | null }> {
  // random bytes: a proxy compressing the body would make the check look faster than an answer's upload
  const body = new Uint8Array(bytes);
  for (let i = 0; i < body.length; i += 65536) crypto.getRandomValues(body.subarray(i, i + 65536));
  let best: number | null = null;
  for (let attempt = 0; attempt < CONNECTION_CHECK_TRIES; attempt++) {
    const timed = await timedUpload(candidateKey, body, now, signal);
    if (timed.kind === 'refused') return { verdict: 'failed', bytesPerSecond: null };
    if (timed.kind === 'unreachable') continue;
    best = Math.max(best ?? 0, timed.bytesPerSecond);
    // a rate already enough, or an upload cut off after half a minute: another would tell nothing new
    if (best >= needed || timed.kind === 'timeout') break;
  }
  if (best === null) return { verdict: 'failed', bytesPerSecond: null };
  return { verdict: verdictOf(best, needed), bytesPerSecond: best };
}
