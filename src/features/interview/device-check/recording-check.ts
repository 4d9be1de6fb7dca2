import { pickMimeType, TakeRecorder } from '../upload/media-recorder';
import { checkTake } from '../upload/take-check';

/**
 * How long the test take records, counted from the recorder's own start event: long enough for a header with both
 * tracks and a few frames, under the 2 s from which checkTake reads a length.
 */
export const RECORDING_CHECK_MS = 1200;
/**
 * How long the recorder may take to say it started, and then to hand over its first piece (it cuts one a second).
 * A busy desktop was seen to start 3.9 s after it was asked; a slow phone is slower still. Only a recorder that is
 * truly stuck waits this long, so the bounds are generous.
 */
export const START_BOUND_MS = 10_000;
export const DATA_BOUND_MS = 8_000;
/** How long stop() may take to hand over the take (its stop event, then the last piece). */
export const STOP_BOUND_MS = 10_000;

/**
 * Why the check failed. 'unsupported': no MediaRecorder or no type it records (nothing to retry); 'empty': the
 * recorder started and stopped and delivered nothing (a browser that cannot record here, WebKitGTK on Debian);
 * 'stuck': it never started, failed, or never handed the take over; the others are the take's check at Stop.
 */
export type RecordingProblem = 'unsupported' | 'empty' | 'stuck' | 'no-video' | 'no-audio' | 'short';

export type RecordingCheck = { ok: true; format: string } | { ok: false; problem: RecordingProblem };

/** The format a negotiated MIME type names, as a candidate may read it: 'WebM (VP9, Opus)', 'MP4'. */
export function formatLabel(mimeType: string): string {
  const [container, params = ''] = mimeType.split(';');
  const name = container?.trim() === 'video/mp4' ? 'MP4' : 'WebM';
  const codecs = /codecs=([^;]+)/.exec(params)?.[1];
  return codecs ? `${name} (${codecs.split(',').map((c) => c.trim().toUpperCase()).join(', ')})` : name;
}

/** The type this browser records an answer in, or null when it cannot record at all. */
export function recordingType(): string | null {
  if (typeof MediaRecorder === 'undefined' || typeof MediaRecorder.isTypeSupported !== 'function') return null;
  return pickMimeType((type) => MediaRecorder.isTypeSupported(type)) ?? null;
}

/** Resolves true when `promise` settles first (its rejection counts), false when `ms` pass first or `signal` aborts. */
function within(promise: Promise<unknown>, ms: number, signal?: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    const done = (value: boolean) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve(value);
    };
    const onAbort = () => done(false);
    const timer = setTimeout(() => done(false), signal?.aborted ? 0 : ms);
    signal?.addEventListener('abort', onAbort);
    promise.then(
      () => done(true),
      () => done(true),
    );
  });
}

const pause = (ms: number, signal?: AbortSignal) => within(new Promise(() => undefined), ms, signal);

/**
 * One test take with the interview's own recorder: recorded RECORDING_CHECK_MS from the recorder's start event and
 * until its first piece came (both bounded), then checked as a take is at Stop.
 */
async function recordOnce(stream: MediaStream, type: string, signal?: AbortSignal): Promise<RecordingCheck> {
  const recorder = new TakeRecorder(stream);
  // an object, not a variable: the callbacks below set it, which the compiler does not follow into a local
  const clock: { startedAt: number | null } = { startedAt: null };
  let markStarted!: () => void;
  const started = new Promise<void>((resolve) => (markStarted = resolve));
  let markData!: () => void;
  const data = new Promise<void>((resolve) => (markData = resolve));
  const start = () => {
    // a piece proves the start as well as the event does, should a browser send it first
    clock.startedAt ??= Date.now();
    markStarted();
  };
  try {
    recorder.start(
      (piece) => {
        if (piece.size === 0) return;
        start();
        markData();
      },
      start,
    );
    if (!(await within(started, START_BOUND_MS, signal)) || clock.startedAt === null) {
      recorder.discard();
      return { ok: false, problem: 'stuck' };
    }
    const from = clock.startedAt;
    await pause(RECORDING_CHECK_MS, signal);
    await within(data, Math.max(0, DATA_BOUND_MS - (Date.now() - from)), signal);
    if (signal?.aborted) {
      recorder.discard();
      return { ok: false, problem: 'stuck' };
    }
    const recordedMs = Date.now() - from;
    const stopping = recorder.stop();
    if (!(await within(stopping, STOP_BOUND_MS, signal))) {
      recorder.discard();
      return { ok: false, problem: 'stuck' };
    }
    const take = await stopping;
    const problem = await checkTake(take.blob, recordedMs);
    if (problem === 'empty') return { ok: false, problem: 'empty' };
    if (problem) return { ok: false, problem };
    return { ok: true, format: formatLabel(type) };
  } catch {
    recorder.discard();
    return { ok: false, problem: 'stuck' };
  }
}

/**
 * Records a short take on the stream with the interview's own recorder and runs the check a take passes at Stop
 * (decisions.md: the device check reuses the check at Stop), so a browser that records nothing, or records no sound,
 * is found before the first question. A failed take is recorded once more before anything is said: a busy device's
 * first take is the one that fails. The takes stay in memory and are dropped.
 */
export async function checkRecording(stream: MediaStream, { signal }: { signal?: AbortSignal } = {}): Promise<RecordingCheck> {
  const type = recordingType();
  if (!type) return { ok: false, problem: 'unsupported' };
  let result = await recordOnce(stream, type, signal);
  if (!result.ok && !signal?.aborted) result = await recordOnce(stream, type, signal);
  return result;
}
