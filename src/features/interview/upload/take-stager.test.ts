import { Blob as NodeBlob } from 'node:buffer';

import { describe, expect, it, vi } from 'vitest';

import { PART_MAX_BYTES, TakeStager, type PartTransport } from './take-stager';
import { UploadError } from './upload-queue';

/** A fake server for parts: stores what it accepts by offset; each queued failure fails one put. */
function fakeParts() {
  const stored = new Map<number, string>();
  const failures: UploadError[] = [];
  const gates: (() => void)[] = [];
  let holding = false;
  const put = vi.fn(async (_take: unknown, offset: number, data: Blob) => {
    if (holding) await new Promise<void>((resolve) => gates.push(resolve));
    const failure = failures.shift();
    if (failure) throw failure;
    stored.set(offset, await data.text());
  });
  const discard = vi.fn<PartTransport['discard']>(() => Promise.resolve());
  const transport: PartTransport = { put, discard };
  return {
    transport,
    put,
    discard,
    stored,
    /** The file the server would assemble: its parts in offset order. */
    assembled: () => [...stored.entries()].sort(([a], [b]) => a - b).map(([, text]) => text).join(''),
    failNext: (...errors: UploadError[]) => failures.push(...errors),
    hold: () => {
      holding = true;
    },
    release: () => {
      holding = false;
      gates.splice(0).forEach((open) => open());
    },
  };
}

/** jsdom's Blob cannot be read back; Node's can (a browser's chunks are Blobs either way). */
const chunk = (text: string) => new NodeBlob([text]) as unknown as Blob;
const noRetries = { retryDelaysMs: [] };
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const offsetsPut = (put: ReturnType<typeof fakeParts>['put']) => put.mock.calls.map(([, offset]) => offset);

describe('TakeStager', () => {
  it('sends each chunk as it is recorded, at its byte offset, in order', async () => {
    const server = fakeParts();
    const stager = new TakeStager('take1', 'cand', 'q1', server.transport);
    stager.push(chunk('abc'));
    stager.push(chunk('de'));
    stager.push(chunk('fghi'));
    await settle();
    expect(offsetsPut(server.put)).toEqual([0, 3, 5]);
    expect(server.put.mock.calls[0]![0]).toMatchObject({ takeId: 'take1', candidateId: 'cand', questionId: 'q1' });
    expect(stager.size).toBe(9);
    const progress: number[] = [];
    await expect(stager.flush((fraction) => progress.push(fraction))).resolves.toBe(true);
    expect(server.assembled()).toBe('abcdefghi');
    // nothing was left to send at submit
    expect(server.put).toHaveBeenCalledTimes(3);
    expect(progress.at(-1)).toBe(1);
  });

  it('ignores empty chunks', async () => {
    const server = fakeParts();
    const stager = new TakeStager('take1', 'cand', 'q1', server.transport);
    stager.push(chunk(''));
    stager.push(chunk('ab'));
    await stager.flush();
    expect(offsetsPut(server.put)).toEqual([0]);
  });

  it('sends a part that failed during the recording again with the next chunk, never twice once stored', async () => {
    const server = fakeParts();
    const stager = new TakeStager('take1', 'cand', 'q1', server.transport, noRetries);
    server.failNext(new UploadError('The connection was lost', 0));
    stager.push(chunk('abc'));
    await settle();
    expect(server.stored.size).toBe(0);
    stager.push(chunk('de'));
    await settle();
    expect(offsetsPut(server.put)).toEqual([0, 0, 3]);
    await expect(stager.flush()).resolves.toBe(true);
    expect(server.put).toHaveBeenCalledTimes(3);
    expect(server.assembled()).toBe('abcde');
  });

  it('rejects flush with a transient failure, and a later flush sends only the missing parts', async () => {
    const server = fakeParts();
    const stager = new TakeStager('take1', 'cand', 'q1', server.transport, noRetries);
    stager.push(chunk('abc'));
    await settle();
    server.failNext(new UploadError('The connection was lost', 0));
    stager.push(chunk('de'));
    await settle();
    server.failNext(new UploadError('Bad gateway', 502));
    const failed = await stager.flush().catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(UploadError);
    expect((failed as UploadError).status).toBe(502);
    expect(stager.usable).toBe(true);
    const progress: number[] = [];
    await expect(stager.flush((fraction) => progress.push(fraction))).resolves.toBe(true);
    expect(offsetsPut(server.put)).toEqual([0, 3, 3, 3]);
    expect(progress).toEqual([3 / 5, 1]);
    expect(server.assembled()).toBe('abcde');
  });

  it('gives up staging when the server refuses a part for good: flush says to send the whole file', async () => {
    const server = fakeParts();
    const stager = new TakeStager('take1', 'cand', 'q1', server.transport);
    server.failNext(new UploadError('You cannot record an answer to this question', 403));
    stager.push(chunk('abc'));
    await settle();
    stager.push(chunk('de'));
    await expect(stager.flush()).resolves.toBe(false);
    expect(stager.usable).toBe(false);
    expect(server.put).toHaveBeenCalledTimes(1);
  });

  it('waits for a part in flight before flushing, and does not send it twice', async () => {
    const server = fakeParts();
    const stager = new TakeStager('take1', 'cand', 'q1', server.transport);
    server.hold();
    stager.push(chunk('abc'));
    stager.push(chunk('de'));
    const flushed = stager.flush();
    await settle();
    server.release();
    await expect(flushed).resolves.toBe(true);
    expect(offsetsPut(server.put)).toEqual([0, 3]);
  });

  it('drops the take on the server once the part in flight is done, and takes no more chunks', async () => {
    const server = fakeParts();
    const stager = new TakeStager('take1', 'cand', 'q1', server.transport);
    server.hold();
    stager.push(chunk('abc'));
    await settle();
    stager.discard();
    stager.discard();
    await settle();
    expect(server.discard).not.toHaveBeenCalled();
    server.release();
    await settle();
    await settle();
    expect(server.discard).toHaveBeenCalledTimes(1);
    expect(server.discard.mock.calls[0]![0]).toMatchObject({ takeId: 'take1' });
    stager.push(chunk('de'));
    await expect(stager.flush()).resolves.toBe(false);
    expect(server.put).toHaveBeenCalledTimes(1);
  });

  it('tries a part that fails on the way again after a pause, and gives up only after the last retry', async () => {
    const server = fakeParts();
    const pauses: number[] = [];
    const sleep = (ms: number) => {
      pauses.push(ms);
      return Promise.resolve();
    };
    const stager = new TakeStager('take1', 'cand', 'q1', server.transport, { retryDelaysMs: [10, 20], sleep });
    server.failNext(new UploadError('The connection was lost', 0), new UploadError('Bad gateway', 502));
    stager.push(chunk('abc'));
    await expect(stager.flush()).resolves.toBe(true);
    expect(pauses).toEqual([10, 20]);
    expect(offsetsPut(server.put)).toEqual([0, 0, 0]);

    const lost = () => new UploadError('The connection was lost', 0);
    server.failNext(lost(), lost(), lost());
    stager.push(chunk('de'));
    await settle();
    await expect(stager.flush()).resolves.toBe(true);
    // three failures: the first attempt and its two retries, then the flush's attempt gets through
    expect(offsetsPut(server.put)).toEqual([0, 0, 0, 3, 3, 3, 3]);
    expect(server.assembled()).toBe('abcde');
  });

  it('stops at a part the server cannot store (507): no pause of its own, the chunks wait out Retry-After, flush sends them later', async () => {
    const server = fakeParts();
    let now = 0;
    const pauses: number[] = [];
    const sleep = (ms: number) => {
      pauses.push(ms);
      return Promise.resolve();
    };
    const stager = new TakeStager('take1', 'cand', 'q1', server.transport, { sleep, now: () => now });
    server.failNext(new UploadError('Something went wrong while processing your request.', 507, null, 5_000));
    stager.push(chunk('abc'));
    await settle();
    expect(offsetsPut(server.put)).toEqual([0]);
    expect(pauses).toEqual([]);
    expect(stager.usable).toBe(true);

    // recording goes on: the server asked for 5 s, so nothing is sent before then
    now = 4_999;
    stager.push(chunk('de'));
    await settle();
    expect(offsetsPut(server.put)).toEqual([0]);

    // the submit's flush tries at once (the answer's upload paces its own tries) and says why it could not
    server.failNext(new UploadError('Something went wrong while processing your request.', 503, null, 5_000));
    const failed = await stager.flush().catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(UploadError);
    expect((failed as UploadError).status).toBe(503);
    expect(pauses).toEqual([]);
    expect(stager.usable).toBe(true);

    await expect(stager.flush()).resolves.toBe(true);
    expect(offsetsPut(server.put)).toEqual([0, 0, 0, 3]);
    expect(server.assembled()).toBe('abcde');
  });

  it('sends new chunks as they come again once the pause the server asked for is over', async () => {
    const server = fakeParts();
    let now = 0;
    const stager = new TakeStager('take1', 'cand', 'q1', server.transport, { now: () => now });
    server.failNext(new UploadError('Something went wrong while processing your request.', 507, null, 2_000));
    stager.push(chunk('abc'));
    await settle();
    now = 2_000;
    stager.push(chunk('de'));
    await settle();
    expect(offsetsPut(server.put)).toEqual([0, 0, 3]);
    expect(server.assembled()).toBe('abcde');
  });

  it('cuts a big chunk into parts of at most PART_MAX_BYTES, at their own offsets', async () => {
    const server = fakeParts();
    const stager = new TakeStager('take1', 'cand', 'q1', server.transport);
    stager.push(chunk('x'.repeat(PART_MAX_BYTES * 2 + 5)));
    stager.push(chunk('yz'));
    await expect(stager.flush()).resolves.toBe(true);
    expect(offsetsPut(server.put)).toEqual([0, PART_MAX_BYTES, PART_MAX_BYTES * 2, PART_MAX_BYTES * 2 + 5]);
    expect(server.put.mock.calls.map(([, , data]) => data.size)).toEqual([PART_MAX_BYTES, PART_MAX_BYTES, 5, 2]);
    expect(stager.size).toBe(PART_MAX_BYTES * 2 + 7);
    expect(server.assembled()).toBe(`${'x'.repeat(PART_MAX_BYTES * 2 + 5)}yz`);
  });

  it('reports the progress of parts sent before the submit while it waits for them', async () => {
    const server = fakeParts();
    const stager = new TakeStager('take1', 'cand', 'q1', server.transport);
    server.hold();
    stager.push(chunk('ab'));
    stager.push(chunk('cd'));
    const progress: number[] = [];
    const flushed = stager.flush((fraction) => progress.push(fraction));
    await settle();
    expect(progress).toEqual([0]);
    server.release();
    await expect(flushed).resolves.toBe(true);
    expect(progress).toEqual([0, 0.5, 1]);
  });
});
