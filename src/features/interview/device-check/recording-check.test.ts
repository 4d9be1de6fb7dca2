import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { fakeStream, FakeRecorder, installFakeMedia, WEBM_HEADER_NO_AUDIO } from '@/testing/fake-media';

import { checkRecording, formatLabel, RECORDING_CHECK_MS } from './recording-check';

beforeEach(() => {
  installFakeMedia();
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/**
 * Moves the fake clock on, 100 ms at a time, until `promise` settles: the take's check reads its bytes through work
 * the fake clock does not drive (a Blob's read), so the clock waits for it between steps, as time would.
 */
async function settle<T>(promise: Promise<T>): Promise<T> {
  let settled = false;
  void promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  while (!settled) {
    await vi.advanceTimersByTimeAsync(100);
    await new Promise((resolve) => setImmediate(resolve));
  }
  return promise;
}

/** Runs the check to its end on the fake clock. */
function run(stream = fakeStream()) {
  return settle(checkRecording(stream));
}

describe('the recording check', () => {
  it('counts its recording from the recorder’s own start event: a recorder that starts 4 s after it was made passes', async () => {
    FakeRecorder.behaviours = [{ startDelayMs: 4000 }];
    expect(await run()).toEqual({ ok: true, format: 'WebM (VP9, OPUS)' });
    expect(FakeRecorder.made).toHaveLength(1);
    const [recorder] = FakeRecorder.made;
    expect(recorder!.startedAt! - recorder!.calledAt!).toBe(4000);
    // stopped a full check's length after the start event, and only once its first piece had come
    expect(recorder!.stoppedAt! - recorder!.startedAt!).toBeGreaterThanOrEqual(RECORDING_CHECK_MS);
  });

  it('waits for a slow device’s first piece before it stops', async () => {
    // the start event at once, the pieces every 5 s (a phone cutting its first piece late)
    FakeRecorder.behaviours = [{ pieceEveryMs: 5000 }];
    const stream = fakeStream();
    const result = checkRecording(stream);
    await vi.advanceTimersByTimeAsync(0);
    const [recorder] = FakeRecorder.made;
    // no piece by the check's own length: it goes on waiting rather than stopping an empty recorder
    await vi.advanceTimersByTimeAsync(RECORDING_CHECK_MS);
    expect(recorder!.state).toBe('recording');
    expect(await settle(result)).toEqual({ ok: true, format: 'WebM (VP9, OPUS)' });
    expect(recorder!.stoppedAt! - recorder!.startedAt!).toBe(5000);
    expect(FakeRecorder.made).toHaveLength(1);
  });

  it('records once more by itself when the first take is empty, and passes on the second', async () => {
    FakeRecorder.behaviours = [{ data: false }, {}];
    expect(await run()).toEqual({ ok: true, format: 'WebM (VP9, OPUS)' });
    expect(FakeRecorder.made).toHaveLength(2);
  });

  it('fails as empty when both takes are empty', async () => {
    FakeRecorder.behaviours = [{ data: false }, { data: false }];
    expect(await run()).toEqual({ ok: false, problem: 'empty' });
    expect(FakeRecorder.made).toHaveLength(2);
  });

  it('fails as stuck when the recorder never starts, twice', async () => {
    FakeRecorder.behaviours = [{ startDelayMs: null }, { startDelayMs: null }];
    expect(await run()).toEqual({ ok: false, problem: 'stuck' });
    expect(FakeRecorder.made.map((recorder) => recorder.state)).toEqual(['inactive', 'inactive']);
  });

  it('fails on a take with no sound, after its second take has none either', async () => {
    FakeRecorder.behaviours = [{ header: WEBM_HEADER_NO_AUDIO }, { header: WEBM_HEADER_NO_AUDIO }];
    expect(await run()).toEqual({ ok: false, problem: 'no-audio' });
  });

  it('cannot record at all without MediaRecorder or without a type it records, and makes no recorder', async () => {
    FakeRecorder.supported = () => false;
    expect(await run()).toEqual({ ok: false, problem: 'unsupported' });
    vi.stubGlobal('MediaRecorder', undefined);
    expect(await run()).toEqual({ ok: false, problem: 'unsupported' });
    expect(FakeRecorder.made).toHaveLength(0);
  });

  it('names the format as a candidate reads it', () => {
    expect(formatLabel('video/webm;codecs=vp8,opus')).toBe('WebM (VP8, OPUS)');
    expect(formatLabel('video/mp4')).toBe('MP4');
  });
});
