import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { env } from '@/config/env';
import { server } from '@/testing/msw-server';

import { AUDIO_BITS_PER_SECOND, VIDEO_BITS_PER_SECOND } from '../upload/media-recorder';

import {
  checkConnection,
  CONNECTION_CHECK_BYTES,
  NEEDED_BYTES_PER_SECOND,
  RECORDING_BYTES_PER_SECOND,
  UPLOAD_HEADROOM,
} from './connection-check';

/**
 * The connection check's route, answering as `answer` says, each upload taking the time that gives it `rates[i]`
 * bytes a second on the check's clock (`now`); `sizes` lists the uploads it received.
 */
function route({
  rates = [NEEDED_BYTES_PER_SECOND * 10],
  answer = () => 'ok',
}: { rates?: number[]; answer?: (attempt: number) => 'ok' | 'refuse' | 'drop' } = {}) {
  const sizes: number[] = [];
  let time = 0;
  server.use(
    http.post(`${env.apiUrl}/api/screenroom/interviews/:key/connection-check`, async ({ request }) => {
      const size = (await request.arrayBuffer()).byteLength;
      time += (size / rates[Math.min(sizes.length, rates.length - 1)]!) * 1000;
      sizes.push(size);
      const what = answer(sizes.length);
      if (what === 'drop') return HttpResponse.error();
      if (what === 'refuse') return HttpResponse.json({ message: 'no' }, { status: 404 });
      return new HttpResponse(null, { status: 204 });
    }),
  );
  return { sizes, now: () => time };
}

describe('the upload check', () => {
  it('needs the recorder’s own bitrate in bytes a second, with headroom', () => {
    expect(RECORDING_BYTES_PER_SECOND).toBe((VIDEO_BITS_PER_SECOND + AUDIO_BITS_PER_SECOND) / 8);
    expect(NEEDED_BYTES_PER_SECOND).toBe(RECORDING_BYTES_PER_SECOND * UPLOAD_HEADROOM);
    expect(UPLOAD_HEADROOM).toBeGreaterThan(1);
    // a sizable upload, under the route's 1 MB
    expect(CONNECTION_CHECK_BYTES).toBeGreaterThan(512 * 1024);
    expect(CONNECTION_CHECK_BYTES).toBeLessThanOrEqual(1024 * 1024);
  });

  it('says good for a rate above what an answer needs, after one upload', async () => {
    const { sizes, now } = route({ rates: [NEEDED_BYTES_PER_SECOND * 1.1] });
    const result = await checkConnection('cand1', { now });
    expect(result.verdict).toBe('good');
    expect(result.bytesPerSecond).toBeCloseTo(NEEDED_BYTES_PER_SECOND * 1.1, 0);
    expect(sizes).toEqual([CONNECTION_CHECK_BYTES]);
  });

  it('says slow for a rate below what an answer needs, twice', async () => {
    const { sizes, now } = route({ rates: [NEEDED_BYTES_PER_SECOND * 0.9] });
    const result = await checkConnection('cand1', { now });
    expect(result.verdict).toBe('slow');
    expect(sizes).toHaveLength(2);
  });

  it('judges by the better of two: one slow moment is no verdict', async () => {
    const { sizes, now } = route({ rates: [NEEDED_BYTES_PER_SECOND / 4, NEEDED_BYTES_PER_SECOND * 3] });
    const result = await checkConnection('cand1', { now });
    expect(sizes).toHaveLength(2);
    expect(result.verdict).toBe('good');
    expect(result.bytesPerSecond).toBeCloseTo(NEEDED_BYTES_PER_SECOND * 3, 0);
  });

  it('a rate that was fine before is slow for a higher bitrate', async () => {
    const rate = NEEDED_BYTES_PER_SECOND * 1.5;
    const { now } = route({ rates: [rate] });
    expect((await checkConnection('cand1', { now })).verdict).toBe('good');
    expect((await checkConnection('cand1', { now, needed: rate * 2 })).verdict).toBe('slow');
  });

  it('one dropped upload is tried again; two are a failure', async () => {
    const first = route({ answer: (attempt) => (attempt === 1 ? 'drop' : 'ok') });
    expect((await checkConnection('cand1', { now: first.now })).verdict).toBe('good');
    expect(first.sizes).toHaveLength(2);
    const dropped = route({ answer: () => 'drop' });
    expect(await checkConnection('cand1', { now: dropped.now })).toEqual({ verdict: 'failed', bytesPerSecond: null });
    expect(dropped.sizes).toHaveLength(2);
  });

  it('a refusal is a failure at once', async () => {
    const { sizes, now } = route({ answer: () => 'refuse' });
    expect(await checkConnection('cand1', { now })).toEqual({ verdict: 'failed', bytesPerSecond: null });
    expect(sizes).toHaveLength(1);
  });
});
