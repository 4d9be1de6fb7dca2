import 'fake-indexeddb/auto';

import { Blob as NodeBlob } from 'node:buffer';

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { createIndexedDbAnswerStore, type PendingAnswer } from './answer-store';
import { resendLostAnswers, type KeptAnswerRef } from './lost-answers';
import { KEEP_CONFIRMED_MS, UploadError, UploadQueue, withRoom, type UploadTransport } from './upload-queue';

// The device keeps each answer the server confirmed for a day, with the server's receipt, and sends it again when
// the server says it lost it (a restore of its database from the replica misses its last second or so).

let dbCounter = 0;
function freshStore() {
  dbCounter += 1;
  return createIndexedDbAnswerStore(`kept-answers-test-${dbCounter}`);
}

/** A file fake-indexeddb can hold (Node's Blob; see upload-queue.test.ts). */
function videoFile(content: string): Blob {
  return new NodeBlob([content], { type: 'video/webm' }) as unknown as Blob;
}

/** Answers are taken one after the other. */
let taken = 0;

function video(id: string, createdAt = ++taken): PendingAnswer {
  return { id, candidateId: 'cand', questionId: `q-${id}`, createdAt, kind: 'video', file: videoFile(`take ${id}`), fileName: 'answer.webm' };
}

function text(id: string, candidateId = 'cand'): PendingAnswer {
  return { id, candidateId, questionId: `q-${id}`, createdAt: ++taken, kind: 'text', content: `answer ${id}` };
}

/** A server that stores what it is sent, answers with a receipt, and can lose answers or refuse the next ones. */
function fakeServer() {
  const stored = new Map<string, PendingAnswer>();
  const refusals: number[] = [];
  const transport: UploadTransport = {
    send: vi.fn(async (answer: PendingAnswer) => {
      await Promise.resolve();
      const refusal = refusals.shift();
      if (refusal) throw new UploadError('upload.problem.deadlinePassed', refusal);
      if (stored.has(answer.id)) throw new UploadError('This question has already been answered', 400);
      stored.set(answer.id, answer);
      return `receipt of ${answer.id} #${stored.size}`;
    }),
    exists: vi.fn(async (answer: PendingAnswer) => {
      await Promise.resolve();
      return stored.has(answer.id);
    }),
  };
  const askMissing = vi.fn(async (_candidateId: string, kept: readonly KeptAnswerRef[]) => {
    await Promise.resolve();
    return kept.filter((ref) => !stored.has(ref.id)).map((ref) => ref.id);
  });
  return { stored, transport, askMissing, refuseNext: (status: number) => refusals.push(status) };
}

async function settle() {
  for (let i = 0; i < 30; i++) {
    await new Promise((resolve) => setImmediate(resolve));
    await vi.advanceTimersByTimeAsync(0);
  }
}

describe('confirmed answers kept on the device for a day', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    vi.setSystemTime(new Date('2026-12-02T10:00:00Z'));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('keeps each confirmed answer with its file or text, the time and the receipt, and never offers it as a draft', async () => {
    const store = freshStore();
    const server = fakeServer();
    const queue = new UploadQueue({ store, transport: server.transport });
    const take = video('v1');
    if (take.kind !== 'video') throw new Error('a video');
    await queue.saveDraft({ ...take, durationMs: 4200 });
    await queue.enqueue(take);
    await queue.enqueue(text('t1'));
    await settle();

    expect(queue.getSnapshot().map((s) => [s.id, s.status])).toEqual([
      ['v1', 'done'],
      ['t1', 'done'],
    ]);
    expect(await store.list()).toEqual([]);
    const kept = await store.listKept('cand');
    expect(kept.map((k) => [k.id, k.questionId, k.kind, k.receipt, k.confirmedAt])).toEqual([
      ['v1', 'q-v1', 'video', 'receipt of v1 #1', Date.now()],
      ['t1', 'q-t1', 'text', 'receipt of t1 #2', Date.now()],
    ]);
    const [keptVideo, keptText] = kept;
    expect(keptVideo?.kind === 'video' && (await keptVideo.file.text())).toBe('take v1');
    expect(keptVideo?.kind === 'video' && keptVideo.file.type).toBe('video/webm');
    expect(keptText?.kind === 'text' && keptText.content).toBe('answer t1');
    expect(await store.listKept('someone-else')).toEqual([]);
    // the question's answer form never offers the confirmed take as one to submit
    expect(await store.findDraft('cand', 'q-v1')).toBeUndefined();
  });

  it('forgets, on each visit, the kept answers confirmed more than a day ago, with their takes', async () => {
    const store = freshStore();
    const old = video('old');
    await store.put(old);
    await store.keep(old, Date.now() - KEEP_CONFIRMED_MS - 1, 'r-old');
    const young = video('young');
    await store.put(young);
    await store.keep(young, Date.now() - KEEP_CONFIRMED_MS + 60_000, 'r-young');
    await store.put(text('text'));
    await store.keep(text('text'), Date.now() - KEEP_CONFIRMED_MS - 1, 'r-text');

    const queue = new UploadQueue({ store, transport: fakeServer().transport });
    await queue.resume();
    expect((await store.listKept('cand')).map((k) => k.id)).toEqual(['young']);

    // a day later the young one goes too
    vi.setSystemTime(Date.now() + 61_000);
    await new UploadQueue({ store, transport: fakeServer().transport }).resume();
    expect(await store.listKept('cand')).toEqual([]);
    expect(await store.findDraft('cand', 'q-young')).toBeUndefined();
  });

  it('when storage is short, drops the oldest kept answers first and never an answer still to send', async () => {
    const store = freshStore();
    for (const [id, at] of [
      ['keptOld', 1000],
      ['keptNew', 3000],
      ['keptMid', 2000],
    ] as const) {
      await store.put(video(id));
      await store.keep(video(id), at, `r-${id}`);
    }
    await store.put(text('waiting'));
    // the device's storage takes a new take only once two kept answers are gone
    const quota = Object.assign(new Error('The quota has been exceeded.'), { name: 'QuotaExceededError' });
    const putDraft = store.putDraft.bind(store);
    store.putDraft = async (take) => {
      if ((await store.listKept('cand')).length > 1) throw quota;
      return putDraft(take);
    };
    const server = fakeServer();
    server.refuseNext(500);
    const queue = new UploadQueue({ store, transport: server.transport });
    await queue.saveDraft({ id: 'new', candidateId: 'cand', questionId: 'q-new', createdAt: 5, file: videoFile('new'), fileName: 'answer.webm' });

    expect((await store.listKept('cand')).map((k) => k.id)).toEqual(['keptNew']);
    expect((await store.findDraft('cand', 'q-new'))?.id).toBe('new');
    expect((await store.list()).map((a) => a.id)).toEqual(['waiting']);

    // nothing kept is left to drop: the write's own failure stands, and the answer to send stays
    await expect(withRoom(store, () => Promise.reject(quota))).rejects.toBe(quota);
    expect(await store.listKept('cand')).toEqual([]);
    expect((await store.list()).map((a) => a.id)).toEqual(['waiting']);
  });

  it('asks the server about the kept answers only, and sends again with its receipt each one it lost', async () => {
    const store = freshStore();
    const server = fakeServer();
    const confirmed: PendingAnswer[] = [];
    const queue = new UploadQueue({ store, transport: server.transport, onConfirmed: (answer) => confirmed.push(answer) });
    await queue.enqueue(video('lostVideo'));
    await queue.enqueue(text('lostText'));
    await queue.enqueue(text('held'));
    await settle();
    const firstConfirmed = Date.now();
    confirmed.length = 0;
    // a restore from the replica: the server lost its last second
    server.stored.delete('lostVideo');
    server.stored.delete('lostText');
    vi.setSystemTime(Date.now() + 60 * 60 * 1000);

    // the link opened again, in a new page
    const reopened = new UploadQueue({ store: createIndexedDbAnswerStore(`kept-answers-test-${dbCounter}`), transport: server.transport, onConfirmed: (answer) => confirmed.push(answer) });
    await reopened.resume();
    const resent = await resendLostAnswers(reopened, 'cand', {}, server.askMissing);
    await settle();

    expect(resent).toBe(2);
    // the server is told ids and questions, nothing else
    expect(server.askMissing).toHaveBeenCalledWith('cand', [
      { id: 'lostVideo', question: 'q-lostVideo' },
      { id: 'lostText', question: 'q-lostText' },
      { id: 'held', question: 'q-held' },
    ]);
    const video2 = server.stored.get('lostVideo');
    expect(video2?.kind === 'video' && (await video2.file.text())).toBe('take lostVideo');
    expect(video2?.receipt).toBe('receipt of lostVideo #1');
    expect(server.stored.get('lostText')).toMatchObject({ kind: 'text', content: 'answer lostText', receipt: 'receipt of lostText #2' });
    expect(confirmed.map((a) => [a.id, a.resentFrom])).toEqual([
      ['lostVideo', firstConfirmed],
      ['lostText', firstConfirmed],
    ]);
    // kept again from the new confirmation, with the new receipt
    const kept = await store.listKept('cand');
    expect(kept.map((k) => [k.id, k.receipt, k.confirmedAt])).toEqual([
      ['held', 'receipt of held #3', firstConfirmed],
      ['lostVideo', 'receipt of lostVideo #2', Date.now()],
      ['lostText', 'receipt of lostText #3', Date.now()],
    ]);

    // the next visit finds everything held: asked, nothing sent
    const sends = vi.mocked(server.transport.send).mock.calls.length;
    expect(await resendLostAnswers(reopened, 'cand', {}, server.askMissing)).toBe(0);
    expect(vi.mocked(server.transport.send).mock.calls.length).toBe(sends);
  });

  it('asks nothing when nothing is kept, or the candidate withdrew', async () => {
    const store = freshStore();
    const server = fakeServer();
    const queue = new UploadQueue({ store, transport: server.transport });
    expect(await resendLostAnswers(queue, 'cand', {}, server.askMissing)).toBe(0);
    await queue.enqueue(text('t1'));
    await settle();
    server.stored.clear();
    expect(await resendLostAnswers(queue, 'cand', { withdrawnAt: '2026-12-02 10:00:00Z' }, server.askMissing)).toBe(0);
    expect(await resendLostAnswers(queue, 'other', {}, server.askMissing)).toBe(0);
    expect(server.askMissing).not.toHaveBeenCalled();
  });

  it('a resend the server refuses (its deadline passed) goes back to being kept, quietly', async () => {
    const store = freshStore();
    const server = fakeServer();
    const confirmed: string[] = [];
    const queue = new UploadQueue({ store, transport: server.transport, onConfirmed: (answer) => confirmed.push(answer.id) });
    await queue.enqueue(text('t1'));
    await settle();
    const firstConfirmed = Date.now();
    server.stored.clear();
    vi.setSystemTime(Date.now() + 1000);
    server.refuseNext(403);
    confirmed.length = 0;

    expect(await resendLostAnswers(queue, 'cand', {}, server.askMissing)).toBe(1);
    await settle();

    expect(server.stored.size).toBe(0);
    expect(confirmed).toEqual([]);
    // nothing on the screen: no failed upload, and the resend's line is never said
    expect(queue.getSnapshot().map((s) => [s.id, s.status])).toEqual([]);
    expect(await store.list()).toEqual([]);
    expect((await store.listKept('cand')).map((k) => [k.id, k.receipt, k.confirmedAt])).toEqual([['t1', 'receipt of t1 #1', firstConfirmed]]);
  });

  it("a candidate's withdrawal or erasure takes the kept answers too", async () => {
    const store = freshStore();
    const queue = new UploadQueue({ store, transport: fakeServer().transport });
    await queue.enqueue(video('v1'));
    await queue.enqueue(text('t2', 'someone-else'));
    await settle();
    await queue.forgetCandidate('cand');
    expect(await store.listKept('cand')).toEqual([]);
    expect((await store.listKept('someone-else')).map((k) => k.id)).toEqual(['t2']);
  });
});
