import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it, vi } from 'vitest';

import { checkTake, tracksOf } from './take-check';

/** A recording from tests/fixtures (MediaRecorder-shaped files the worker tests generate with ffmpeg). */
const fixture = (name: string) => new Blob([readFileSync(join(__dirname, '../../../../tests/fixtures', name))]);
const header = (text: string) => new Blob([Uint8Array.from(text, (c) => c.charCodeAt(0))]);
const WEBM_MAGIC = '\x1a\x45\xdf\xa3';

describe('tracksOf', () => {
  it.each(['answer.webm', 'mediarecorder-unsized.webm', 'mediarecorder-sized.webm', 'mediarecorder-fragmented.mp4'])(
    'finds the video and the audio track of %s',
    async (name) => {
      expect(await tracksOf(fixture(name))).toEqual({ video: true, audio: true });
    },
  );

  it('finds what a header names and nothing else', async () => {
    expect(await tracksOf(header(`${WEBM_MAGIC} V_VP8`))).toEqual({ video: true, audio: false });
    expect(await tracksOf(header(`${WEBM_MAGIC} A_OPUS`))).toEqual({ video: false, audio: true });
    expect(await tracksOf(header('\0\0\0\x18ftypmp42 moov trak mdia hdlr soun'))).toEqual({ video: false, audio: true });
  });
});

describe('checkTake', () => {
  const noProbe = vi.fn(() => Promise.resolve(null));

  it('passes a real recording, and refuses an empty one, one without video and one without sound', async () => {
    expect(await checkTake(fixture('answer.webm'), 1000, noProbe)).toBeNull();
    expect(await checkTake(new Blob([]), 3000, noProbe)).toBe('empty');
    expect(await checkTake(header(`${WEBM_MAGIC} A_OPUS`), 1000, noProbe)).toBe('no-video');
    expect(await checkTake(header(`${WEBM_MAGIC} V_VP9`), 1000, noProbe)).toBe('no-audio');
  });

  it('refuses a take the browser reads as under half the time recorded; a length it cannot read passes', async () => {
    const take = fixture('answer.webm');
    expect(await checkTake(take, 10_000, () => Promise.resolve(3))).toBe('short');
    expect(await checkTake(take, 10_000, () => Promise.resolve(9.4))).toBeNull();
    expect(await checkTake(take, 10_000, () => Promise.resolve(null))).toBeNull();
    // a short take is not probed at all
    const probe = vi.fn(() => Promise.resolve(0.1));
    expect(await checkTake(take, 1500, probe)).toBeNull();
    expect(probe).not.toHaveBeenCalled();
  });
});
