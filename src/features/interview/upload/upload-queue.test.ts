import 'fake-indexeddb/auto';

import { Blob as NodeBlob } from 'node:buffer';

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { createIndexedDbAnswerStore, type DraftTake, type PendingAnswer } from './answer-store';
import {
  isStorageRefusal,
  isTransient,
  MAX_RETRY_AFTER_MS,
  retryDelay,
  retryDelayAfter,
  STALE_DRAFT_MS,
  UploadError,
  UploadQueue,
  type UploadTransport,
} from './upload-queue';

let dbCounter = 0;
let dbName = '';
function freshStore() {
  dbCounter += 1;
  dbName = `upload-queue-test-${dbCounter}`;
  return createIndexedDbAnswerStore(dbName);
}

/**
 * A file IndexedDB can hold in these tests: fake-indexeddb copies values with Node's structuredClone, which copies
 * Node's Blob but not jsdom's (a browser's IndexedDB stores either).
 */
function videoFile(content: string): Blob {
  return new NodeBlob([content], { type: 'video/webm' }) as unknown as Blob;
}

function draftTake(id: string, createdAt = 1, questionId = `q-${id}`): DraftTake {
  return { id, candidateId: 'cand', questionId, createdAt, file: videoFile(`take ${id}`), fileName: 'answer.webm' };
}

/**
 * The keys of the answer and take stores of the last fresh store's database, read straight from IndexedDB (the
 * chunks of takes being recorded have tests of their own).
 */
async function rawKeys(name = dbName): Promise<Record<string, string[]>> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const open = indexedDB.open(name);
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error ?? new Error('IndexedDB failed'));
  });
  const result: Record<string, string[]> = {};
  for (const store of Array.from(db.objectStoreNames).filter((name) => name !== 'chunks')) {
    const keys = db.transaction(store).objectStore(store).getAllKeys();
    result[store] = await new Promise<string[]>((resolve, reject) => {
      keys.onsuccess = () => resolve(keys.result.map(String).sort());
      keys.onerror = () => reject(keys.error ?? new Error('IndexedDB failed'));
    });
  }
  db.close();
  return result;
}

function textAnswer(id: string, questionId = `q-${id}`, createdAt = 1): PendingAnswer {
  return { id, candidateId: 'cand', questionId, createdAt, kind: 'text', content: `answer ${id}` };
}

/** A fake server: holds the answers it accepted, refuses duplicates like PocketBase (400). */
function fakeServer() {
  const stored = new Map<string, PendingAnswer>();
  const failures: (() => never)[] = [];
  let loseNextResponse = false;
  const transport: UploadTransport = {
    send: vi.fn(async (answer: PendingAnswer, onProgress: (fraction: number) => void) => {
      await Promise.resolve();
      const failure = failures.shift();
      if (failure) failure();
      if (stored.has(answer.id)) throw new UploadError('This question has already been answered', 400);
      stored.set(answer.id, answer);
      onProgress(0.5);
      onProgress(1);
      if (loseNextResponse) {
        loseNextResponse = false;
        throw new UploadError('The connection was lost', 0);
      }
    }),
    exists: vi.fn(async (answer: PendingAnswer) => {
      await Promise.resolve();
      return stored.has(answer.id);
    }),
  };
  return {
    stored,
    transport,
    failNext(status: number, times = 1, retryAfterMs?: number) {
      for (let i = 0; i < times; i++) {
        failures.push(() => {
          throw new UploadError(status === 0 ? 'The connection was lost' : 'refused', status, null, retryAfterMs);
        });
      }
    },
    loseNextResponse() {
      loseNextResponse = true;
    },
  };
}

/** Lets pending promises (IndexedDB, the fake transport) settle without moving the clock. */
async function settle() {
  for (let i = 0; i < 30; i++) {
    await new Promise((resolve) => setImmediate(resolve));
    await vi.advanceTimersByTimeAsync(0);
  }
}

describe('retryDelay', () => {
  it('doubles from 1 s and stops at 30 s', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map(retryDelay)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
  });
});

describe('isTransient', () => {
  it('retries a lost connection, server errors, timeouts and rate limits, not a refusal', () => {
    expect(isTransient(new UploadError('x', 0))).toBe(true);
    expect(isTransient(new UploadError('x', 502))).toBe(true);
    expect(isTransient(new UploadError('x', 429))).toBe(true);
    expect(isTransient(new UploadError('x', 400))).toBe(false);
    expect(isTransient(new UploadError('x', 403))).toBe(false);
  });
});

describe('storage refusals (issue 26: a full disk)', () => {
  it('are transient, and only 507 and 503 are storage refusals', () => {
    expect(isTransient(new UploadError('x', 507))).toBe(true);
    expect(isTransient(new UploadError('x', 503))).toBe(true);
    expect([507, 503, 500, 502, 0, 400, 409].map((status) => isStorageRefusal(new UploadError('x', status)))).toEqual([
      true,
      true,
      false,
      false,
      false,
      false,
      false,
    ]);
    expect(isStorageRefusal(new Error('x'))).toBe(false);
  });

  it('wait at least what Retry-After asks, at most a minute, and never less than the backoff', () => {
    const asked = (ms?: number) => new UploadError('x', 507, null, ms);
    expect(retryDelayAfter(asked(5_000), 1)).toBe(5_000);
    expect(retryDelayAfter(asked(500), 3)).toBe(4_000);
    expect(retryDelayAfter(asked(), 2)).toBe(2_000);
    expect(retryDelayAfter(asked(3_600_000), 1)).toBe(MAX_RETRY_AFTER_MS);
    expect(MAX_RETRY_AFTER_MS).toBe(60_000);
    expect(retryDelayAfter(new Error('x'), 1)).toBe(1_000);
  });
});

describe('UploadQueue', () => {
  beforeEach(() => {
    // fake-indexeddb schedules its work with setImmediate: leave that one real.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('stores the answer before uploading, and removes the local copy only after the server confirmed it', async () => {
    const store = freshStore();
    const server = fakeServer();
    let storedWhenSent = 0;
    const send = server.transport.send;
    server.transport.send = async (answer, onProgress) => {
      storedWhenSent = (await store.list()).length;
      return send(answer, onProgress);
    };
    const confirmed: string[] = [];
    const queue = new UploadQueue({ store, transport: server.transport, onConfirmed: (a) => confirmed.push(a.id) });

    await queue.enqueue(textAnswer('a1'));
    await settle();

    expect(storedWhenSent).toBe(1);
    expect(server.stored.has('a1')).toBe(true);
    expect(await store.list()).toEqual([]);
    expect(confirmed).toEqual(['a1']);
    expect(queue.getSnapshot()).toMatchObject([{ id: 'a1', status: 'done', progress: 1 }]);
    expect(queue.hasPending()).toBe(false);
  });

  it('starts a staged take at once, while its record is still being written, and removes the record only after', async () => {
    const store = freshStore();
    const server = fakeServer();
    // the device's write of the record held back until the upload has begun
    let release!: () => void;
    const written = new Promise<void>((resolve) => (release = resolve));
    const put = store.put.bind(store);
    store.put = async (answer) => {
      await written;
      return put(answer);
    };
    // confirming moves the answer from the records to upload to the kept ones
    const removed: string[] = [];
    const keep = store.keep.bind(store);
    store.keep = async (answer, confirmedAt, receipt) => {
      removed.push(answer.id);
      return keep(answer, confirmedAt, receipt);
    };
    // the fake server's transport, for a queue whose answers may carry their staged take
    const transport: UploadTransport<{ takeId: string }> = {
      send: (answer, onProgress) => server.transport.send(answer, onProgress),
      exists: (answer) => server.transport.exists(answer),
    };
    const queue = new UploadQueue<{ takeId: string }>({ store, transport });
    const take = { ...draftTake('v1'), kind: 'video' as const };

    const enqueued = queue.enqueue(take, { takeId: 'v1' });
    await vi.waitFor(() => expect(server.stored.has('v1')).toBe(true));
    // confirmed by the server, but its record is not written yet: nothing is removed before it is
    await settle();
    expect(removed).toEqual([]);
    release();
    await enqueued;
    await settle();
    expect(removed).toEqual(['v1']);
    expect(await rawKeys()).toMatchObject({ 'pending-answers': [] });

    // an answer the server holds nothing of is still stored on the device first
    let storedWhenSent = -1;
    const send = server.transport.send;
    server.transport.send = async (answer, onProgress) => {
      storedWhenSent = (await store.list()).length;
      return send(answer, onProgress);
    };
    await queue.enqueue(textAnswer('t1'));
    await settle();
    expect(storedWhenSent).toBe(1);
  });

  it('retries a dropped connection with backoff until it goes through', async () => {
    const store = freshStore();
    const server = fakeServer();
    server.failNext(0, 2);
    const queue = new UploadQueue({ store, transport: server.transport });

    await queue.enqueue(textAnswer('a1'));
    await settle();
    expect(queue.getSnapshot()[0]).toMatchObject({ status: 'waiting', attempts: 1 });
    expect(queue.hasPending()).toBe(true);
    expect(await store.list()).toHaveLength(1);

    await vi.advanceTimersByTimeAsync(999);
    expect(server.transport.send).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    await settle();
    expect(server.transport.send).toHaveBeenCalledTimes(2);
    expect(queue.getSnapshot()[0]).toMatchObject({ status: 'waiting', attempts: 2 });

    // The second wait is twice as long.
    await vi.advanceTimersByTimeAsync(1999);
    expect(server.transport.send).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1);
    await settle();
    expect(server.transport.send).toHaveBeenCalledTimes(3);
    expect(queue.getSnapshot()[0]).toMatchObject({ status: 'done' });
    expect(await store.list()).toEqual([]);
    expect(server.stored.size).toBe(1);
  });

  it('after a lost response, recognises the answer the server already holds instead of making a second one', async () => {
    const store = freshStore();
    const server = fakeServer();
    server.loseNextResponse();
    const confirmed: string[] = [];
    const queue = new UploadQueue({ store, transport: server.transport, onConfirmed: (a) => confirmed.push(a.id) });

    await queue.enqueue(textAnswer('a1'));
    await settle();
    expect(queue.getSnapshot()[0]).toMatchObject({ status: 'waiting' });
    await vi.advanceTimersByTimeAsync(1000);
    await settle();

    expect(server.transport.send).toHaveBeenCalledTimes(2);
    expect(server.transport.exists).toHaveBeenCalledTimes(1);
    expect(server.stored.size).toBe(1);
    expect(queue.getSnapshot()[0]).toMatchObject({ status: 'done' });
    expect(confirmed).toEqual(['a1']);
    expect(await store.list()).toEqual([]);
  });

  it('keeps a refused answer that the server does not hold, and retries it on request', async () => {
    const store = freshStore();
    const server = fakeServer();
    server.failNext(400);
    const queue = new UploadQueue({ store, transport: server.transport });

    await queue.enqueue(textAnswer('a1'));
    await settle();
    expect(queue.getSnapshot()[0]).toMatchObject({ status: 'failed', error: 'refused' });
    expect(await store.list()).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(server.transport.send).toHaveBeenCalledTimes(1);

    queue.retryNow();
    await settle();
    expect(queue.getSnapshot()[0]).toMatchObject({ status: 'done' });
    expect(await store.list()).toEqual([]);
  });

  it('retries at once when asked (the connection came back) instead of waiting out the backoff', async () => {
    const store = freshStore();
    const server = fakeServer();
    server.failNext(0, 5);
    const queue = new UploadQueue({ store, transport: server.transport });
    await queue.enqueue(textAnswer('a1'));
    await settle();
    for (let i = 0; i < 4; i++) {
      queue.retryNow();
      await settle();
    }
    expect(queue.getSnapshot()[0]).toMatchObject({ status: 'waiting', attempts: 5 });
    queue.retryNow();
    await settle();
    expect(server.transport.send).toHaveBeenCalledTimes(6);
    expect(queue.getSnapshot()[0]).toMatchObject({ status: 'done' });
  });

  it('resumes, after a reload, the answers an earlier page stored, in the order they were taken', async () => {
    const store = freshStore();
    await store.put(textAnswer('second', 'q2', 2));
    await store.put(textAnswer('first', 'q1', 1));
    const server = fakeServer();
    const order: string[] = [];
    const send = server.transport.send;
    server.transport.send = (answer, onProgress) => {
      order.push(answer.id);
      return send(answer, onProgress);
    };
    const queue = new UploadQueue({ store, transport: server.transport });

    await queue.resume();
    await queue.resume(); // twice (StrictMode, two loaders) still uploads each once
    await settle();

    expect(order).toEqual(['first', 'second']);
    expect(server.stored.size).toBe(2);
    expect(await store.list()).toEqual([]);
  });

  it('uploads one answer at a time and reports progress to subscribers', async () => {
    const store = freshStore();
    const server = fakeServer();
    const queue = new UploadQueue({ store, transport: server.transport });
    const progress: string[] = [];
    let mostAtOnce = 0;
    queue.subscribe(() => {
      const uploading = queue.getSnapshot().filter((s) => s.status === 'uploading');
      mostAtOnce = Math.max(mostAtOnce, uploading.length);
      const entry = uploading.map((s) => `${s.id}:${s.progress}`).join();
      if (entry && progress.at(-1) !== entry) progress.push(entry);
    });

    await queue.enqueue(textAnswer('a1'));
    await queue.enqueue(textAnswer('a2'));
    await settle();

    expect(mostAtOnce).toBe(1);
    expect(progress).toEqual(['a1:0', 'a1:0.5', 'a1:1', 'a2:0', 'a2:0.5', 'a2:1']);
    expect(queue.getSnapshot().map((s) => s.status)).toEqual(['done', 'done']);
  });

  it('keeps an answer the server cannot store (507), waits out its Retry-After, and stores it once when space is back', async () => {
    const store = freshStore();
    const server = fakeServer();
    server.failNext(507, 2, 5_000);
    const confirmed: string[] = [];
    const queue = new UploadQueue({ store, transport: server.transport, onConfirmed: (a) => confirmed.push(a.id) });

    await queue.enqueue(textAnswer('a1'));
    await settle();
    expect(queue.getSnapshot()[0]).toMatchObject({ status: 'waiting', attempts: 1, storageFull: true });
    expect(queue.hasPending()).toBe(true);
    expect(await store.list()).toHaveLength(1);

    // the backoff alone would try again after 1 s: the server asked for 5
    await vi.advanceTimersByTimeAsync(4_999);
    expect(server.transport.send).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    await settle();
    expect(server.transport.send).toHaveBeenCalledTimes(2);
    expect(queue.getSnapshot()[0]).toMatchObject({ status: 'waiting', attempts: 2, storageFull: true });
    expect(await store.list()).toHaveLength(1);

    await vi.advanceTimersByTimeAsync(5_000);
    await settle();
    expect(server.transport.send).toHaveBeenCalledTimes(3);
    expect(queue.getSnapshot()[0]).toMatchObject({ status: 'done', storageFull: false });
    expect(server.stored.size).toBe(1);
    expect(confirmed).toEqual(['a1']);
    expect(await store.list()).toEqual([]);
  });

  it('marks a storage refusal through the attempt that follows it, and drops the mark when the attempt fails otherwise', async () => {
    const store = freshStore();
    const server = fakeServer();
    server.failNext(503, 1);
    server.failNext(0, 1);
    const seen: (boolean | undefined)[] = [];
    const queue = new UploadQueue({ store, transport: server.transport });
    queue.subscribe(() => {
      const state = queue.getSnapshot()[0];
      if (state?.status === 'uploading') seen.push(state.storageFull);
    });
    await queue.enqueue(textAnswer('a1'));
    await settle();
    expect(queue.getSnapshot()[0]).toMatchObject({ status: 'waiting', storageFull: true });
    await vi.advanceTimersByTimeAsync(1_000);
    await settle();
    // the second attempt was made while the answer was still marked; the dropped connection is no storage refusal
    expect(seen.slice(0, 2)).toEqual([undefined, true]);
    expect(queue.getSnapshot()[0]).toMatchObject({ status: 'waiting', storageFull: false });
    await vi.advanceTimersByTimeAsync(2_000);
    await settle();
    expect(queue.getSnapshot()[0]).toMatchObject({ status: 'done' });
    expect(server.stored.size).toBe(1);
  });

  it('counts an answer stored despite its 507 (a retry refused as a duplicate) as stored, with no second answer', async () => {
    const store = freshStore();
    const server = fakeServer();
    const send = server.transport.send;
    let first = true;
    server.transport.send = async (answer, onProgress) => {
      await send(answer, onProgress);
      if (first) {
        first = false;
        // the server kept it, but said it could not store it
        throw new UploadError('Something went wrong while processing your request.', 507, null, 2_000);
      }
    };
    const confirmed: string[] = [];
    const queue = new UploadQueue({ store, transport: server.transport, onConfirmed: (a) => confirmed.push(a.id) });
    await queue.enqueue(textAnswer('a1'));
    await settle();
    expect(queue.getSnapshot()[0]).toMatchObject({ status: 'waiting', storageFull: true });
    await vi.advanceTimersByTimeAsync(2_000);
    await settle();
    expect(server.transport.exists).toHaveBeenCalledTimes(1);
    expect(server.stored.size).toBe(1);
    expect(queue.getSnapshot()[0]).toMatchObject({ status: 'done' });
    expect(confirmed).toEqual(['a1']);
    expect(await store.list()).toEqual([]);
  });
});

describe('drafts: a finished take is stored before it is submitted', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('stores the take when it is finished without uploading it; submitting it uploads that take, then keeps it as confirmed', async () => {
    const store = freshStore();
    const server = fakeServer();
    const queue = new UploadQueue({ store, transport: server.transport });

    const take = draftTake('t1');
    await queue.saveDraft(take);
    await settle();
    expect(await rawKeys()).toEqual({ kept: [], 'pending-answers': [], takes: ['t1'] });
    expect(server.transport.send).not.toHaveBeenCalled();
    expect(queue.getSnapshot()).toEqual([]);
    expect(await store.list()).toEqual([]);

    let storedWhenSent: Record<string, string[]> = {};
    const send = server.transport.send;
    server.transport.send = async (answer, onProgress) => {
      storedWhenSent = await rawKeys();
      return send(answer, onProgress);
    };
    await queue.enqueue({ ...take, kind: 'video' });
    await settle();

    expect(storedWhenSent).toEqual({ kept: [], 'pending-answers': ['t1'], takes: ['t1'] });
    const sent = server.stored.get('t1');
    expect(sent?.kind).toBe('video');
    expect(sent?.kind === 'video' && (await sent.file.text())).toBe('take t1');
    expect(queue.getSnapshot()).toMatchObject([{ id: 't1', status: 'done' }]);
    expect(await rawKeys()).toEqual({ kept: ['t1'], 'pending-answers': [], takes: ['t1'] });
  });

  it('writes only a small record on submit: the submitted answer points at its stored take', async () => {
    const store = freshStore();
    await store.putDraft(draftTake('t1'));
    await store.put({ ...draftTake('t1'), file: videoFile('the same take, held in memory'), kind: 'video' });
    // the take stored at stop is the one kept, not written again
    const [listed] = await store.list();
    expect(listed?.kind === 'video' && (await listed.file.text())).toBe('take t1');
  });

  it('stores the take with the answer when its draft is gone (never stored, or cleaned up by another tab)', async () => {
    const store = freshStore();
    const server = fakeServer();
    let sendNow = false;
    const send = server.transport.send;
    server.transport.send = async (answer, onProgress) => {
      // hold the upload until the stored copy has been checked
      while (!sendNow) await new Promise((resolve) => setImmediate(resolve));
      return send(answer, onProgress);
    };
    const queue = new UploadQueue({ store, transport: server.transport });
    await queue.enqueue({ ...draftTake('t1'), kind: 'video' });
    await settle();
    expect(await rawKeys()).toEqual({ kept: [], 'pending-answers': ['t1'], takes: ['t1'] });
    const [listed] = await store.list();
    expect(listed?.kind === 'video' && (await listed.file.text())).toBe('take t1');
    sendNow = true;
    await settle();
    expect(server.stored.has('t1')).toBe(true);
  });

  it('never uploads a draft on resume: only submitted answers go, in the order they were taken', async () => {
    const store = freshStore();
    await store.putDraft(draftTake('draft', Date.now()));
    await store.putDraft(draftTake('submitted', 3));
    await store.put({ ...draftTake('submitted', 3), kind: 'video' });
    await store.put(textAnswer('text', 'q-text', 4));
    const server = fakeServer();
    const order: string[] = [];
    const send = server.transport.send;
    server.transport.send = (answer, onProgress) => {
      order.push(answer.id);
      return send(answer, onProgress);
    };
    // a new page (a reload): a new queue over the same database
    const queue = new UploadQueue({ store: createIndexedDbAnswerStore(dbName), transport: server.transport });
    await queue.resume();
    await settle();

    expect(order).toEqual(['submitted', 'text']);
    expect(queue.getSnapshot().map((s) => s.id)).toEqual(['submitted', 'text']);
    // the draft is young: another tab may still be showing it
    expect(await rawKeys()).toEqual({ kept: ['submitted', 'text'], 'pending-answers': [], takes: ['draft', 'submitted'] });
  });

  it('drops, on resume, drafts older than an hour that were never submitted, and nothing else', async () => {
    vi.setSystemTime(10 * STALE_DRAFT_MS);
    const now = Date.now();
    const store = freshStore();
    await store.putDraft(draftTake('old', now - STALE_DRAFT_MS - 1));
    await store.putDraft(draftTake('young', now - STALE_DRAFT_MS + 60_000));
    await store.putDraft(draftTake('oldSubmitted', now - 2 * STALE_DRAFT_MS));
    await store.put({ ...draftTake('oldSubmitted', now - 2 * STALE_DRAFT_MS), kind: 'video' });
    const server = fakeServer();
    server.failNext(0); // the submitted one stays pending for a while
    const queue = new UploadQueue({ store, transport: server.transport });
    await queue.resume();
    await settle();

    expect(await rawKeys()).toEqual({ kept: [], 'pending-answers': ['oldSubmitted'], takes: ['oldSubmitted', 'young'] });
  });

  it('discarding a draft (record again, question left) drops its take, but never a submitted answer', async () => {
    const store = freshStore();
    const server = fakeServer();
    server.failNext(0);
    const queue = new UploadQueue({ store, transport: server.transport });
    await queue.saveDraft(draftTake('replaced'));
    await queue.saveDraft(draftTake('submitted'));
    await queue.enqueue({ ...draftTake('submitted'), kind: 'video' });
    await settle();

    await queue.discardDraft('replaced');
    await queue.discardDraft('submitted');
    // and straight at the store, as another part of the page could
    await store.removeDraft('submitted');
    expect(await rawKeys()).toEqual({ kept: [], 'pending-answers': ['submitted'], takes: ['submitted'] });

    queue.retryNow();
    await settle();
    expect(server.stored.has('submitted')).toBe(true);
    expect(server.stored.has('replaced')).toBe(false);
  });

  it('still uploads the answers a version-1 page stored (file inline in pending-answers) after the upgrade', async () => {
    dbCounter += 1;
    dbName = `upload-queue-test-${dbCounter}`;
    // what version 1 of the store wrote
    const v1 = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open(dbName, 1);
      open.onupgradeneeded = () => open.result.createObjectStore('pending-answers', { keyPath: 'id' });
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error ?? new Error('IndexedDB failed'));
    });
    const tx = v1.transaction('pending-answers', 'readwrite');
    tx.objectStore('pending-answers').put({ ...draftTake('legacyVideo', 1), kind: 'video' });
    tx.objectStore('pending-answers').put(textAnswer('legacyText', 'q-text', 2));
    await new Promise((resolve) => (tx.oncomplete = resolve));
    v1.close();

    const server = fakeServer();
    const queue = new UploadQueue({ store: createIndexedDbAnswerStore(dbName), transport: server.transport });
    await queue.resume();
    await settle();

    const video = server.stored.get('legacyVideo');
    expect(video?.kind === 'video' && (await video.file.text())).toBe('take legacyVideo');
    expect(server.stored.get('legacyText')).toMatchObject({ kind: 'text', content: 'answer legacyText' });
    expect(await rawKeys()).toEqual({ kept: ['legacyText', 'legacyVideo'], 'pending-answers': [], takes: ['legacyVideo'] });
  });
});


describe("a candidate's withdrawal (they had their answers deleted)", () => {
  it("stops sending that candidate's answers and removes every copy of them on this device, and only theirs", async () => {
    const store = freshStore();
    const server = fakeServer();
    server.failNext(0, 5);
    const queue = new UploadQueue({ store, transport: server.transport });
    await queue.saveDraft(draftTake('draft1', 1));
    await queue.saveDraft({ ...draftTake('other1', 1), candidateId: 'someone-else' });
    await store.putChunk({ takeId: 'chunkTake', candidateId: 'cand', questionId: 'q1', offset: 0, data: videoFile('chunk'), ms: 100, last: false, createdAt: 1 });
    await queue.enqueue(textAnswer('waiting1'));
    await vi.waitFor(() => expect(queue.getSnapshot()[0]?.status).toBe('waiting'));

    await queue.forgetCandidate('cand');

    expect(queue.getSnapshot()).toEqual([]);
    expect(await rawKeys()).toEqual({ kept: [], 'pending-answers': [], takes: ['other1'] });
    expect(await store.findChunks('cand', 'q1')).toEqual([]);
    await queue.resume();
    expect(queue.getSnapshot()).toEqual([]);
    expect(server.stored.has('waiting1')).toBe(false);
  });
});
