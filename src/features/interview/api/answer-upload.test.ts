import { Blob as NodeBlob } from 'node:buffer';

import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { env } from '@/config/env';
import { FakeXhr } from '@/testing/fake-xhr';
import { server } from '@/testing/msw-server';

import type { DraftTake, PendingVideoAnswer, RecordedChunk } from '../upload/answer-store';
import type { PartTransport, StagedTakeRef } from '../upload/take-stager';
import { english } from '../i18n/testing';
import { UploadError } from '../upload/upload-queue';

import {
  answerProblemKey,
  answerTransport,
  buildAnswerForm,
  buildStagedAnswerBody,
  parseRetryAfter,
  partTransport,
} from './answer-transport';
import { answerUploads } from './answer-uploads';
import { VideoDrafts } from './video-drafts';

/** A submitted video answer of candidate cand1 to q1 with `file` as its take. */
function videoAnswer(file: Blob): PendingVideoAnswer {
  return { id: 'abcdefghij12345', candidateId: 'cand1', questionId: 'q1', createdAt: 1, kind: 'video', file, fileName: 'answer.webm' };
}

describe('buildAnswerForm', () => {
  it('sends the answer with its client id, and the video file under `file`', () => {
    const file = new Blob(['video'], { type: 'video/webm' });
    const form = buildAnswerForm(videoAnswer(file));
    expect([...form.keys()]).toEqual(['id', 'candidate', 'question', 'file']);
    expect(form.get('id')).toBe('abcdefghij12345');
    expect(form.get('candidate')).toBe('cand1');
    expect(form.get('question')).toBe('q1');
    const sent = form.get('file');
    expect(sent).toBeInstanceOf(File);
    expect((sent as File).name).toBe('answer.webm');
    expect((sent as File).size).toBe(file.size);
  });

  it('sends an answer the server lost with the receipt the server gave it, and a staged one too', () => {
    const file = new Blob(['video'], { type: 'video/webm' });
    const form = buildAnswerForm({ ...videoAnswer(file), receipt: 'v1.1.mac', resentFrom: 5 });
    expect([...form.keys()]).toEqual(['id', 'candidate', 'question', 'file', 'receipt']);
    expect(form.get('receipt')).toBe('v1.1.mac');
    const text = buildAnswerForm({ id: 'x', candidateId: 'c', questionId: 'q', createdAt: 1, kind: 'text', content: 'Hi', receipt: 'v1.2.mac' });
    expect(text.get('receipt')).toBe('v1.2.mac');
    expect(JSON.parse(buildStagedAnswerBody({ ...videoAnswer(file), receipt: 'v1.3.mac' }))).toMatchObject({ staged: true, receipt: 'v1.3.mac' });
    expect(JSON.parse(buildStagedAnswerBody(videoAnswer(file)))).not.toHaveProperty('receipt');
  });

  it('sends a text answer as `content`, with no file', () => {
    const form = buildAnswerForm({ id: 'x', candidateId: 'c', questionId: 'q', createdAt: 1, kind: 'text', content: 'Hi' });
    expect([...form.keys()]).toEqual(['id', 'candidate', 'question', 'content']);
    expect(form.get('content')).toBe('Hi');
  });
});

describe('answerProblemKey', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('says known refusals in the interview\'s own words, and sends the server\'s to the console (issue 23)', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const answered = {
      status: 400,
      message: 'Failed to create record.',
      data: { question: { code: 'validation_not_unique', message: 'This question has already been answered.' } },
    };
    expect(english(answerProblemKey(answered, 400))).toBe('This question has already been answered.');
    expect(english(answerProblemKey({ status: 403, message: 'You have used all your takes for this question.', data: {} }, 403))).toBe(
      'You have used all your takes for this question.',
    );
    expect(english(answerProblemKey({ status: 413, message: 'Request entity too large', data: {} }, 413))).toBe(
      'Your recording is too large to upload. Please record a shorter answer.',
    );
    const mime = { status: 400, message: 'Failed to create record.', data: { file: { code: 'validation_invalid_mime_type', message: '"answer_x.mp4" mime type must be one of: video/webm, video/mp4.' } } };
    expect(english(answerProblemKey(mime, 400))).toBe('Your recording could not be used. Please record your answer again.');
    expect(warn).toHaveBeenCalledWith('The server refused an answer:', 'Failed to create record.', '"answer_x.mp4" mime type must be one of: video/webm, video/mp4.');
  });

  it('says anything else with the generic sentence, never the server\'s wording', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(english(answerProblemKey({ message: 'Failed to create record.', data: {} }, 400))).toBe('Something went wrong while processing your request.');
    expect(english(answerProblemKey(null, 500))).toBe('Something went wrong while processing your request.');
  });
});

describe('Retry-After (issue 26: a server out of space says when to try again)', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('reads delay-seconds and HTTP dates, and nothing else', () => {
    const now = Date.parse('2026-11-24T10:00:00Z');
    expect(parseRetryAfter('30', now)).toBe(30_000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Tue, 24 Nov 2026 10:00:12 GMT', now)).toBe(12_000);
    expect(parseRetryAfter('Tue, 24 Nov 2026 09:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter('', now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-5', now)).toBeUndefined();
  });

  it('goes with a part the server could not store, in the interview\'s words only', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    server.use(
      http.put(`${env.apiUrl}/api/screenroom/takes/:take/parts/:offset`, () =>
        HttpResponse.json(
          { status: 507, message: 'database or disk is full', data: {} },
          { status: 507, headers: { 'Retry-After': '7' } },
        ),
      ),
    );
    const take = { takeId: 'take1', candidateId: 'cand1', questionId: 'q1' };
    const refused = await partTransport.put(take, 0, new Blob(['abc']), { ms: 1000, last: false }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(UploadError);
    expect(refused).toMatchObject({ status: 507, retryAfterMs: 7_000 });
    // the refusal's text is a catalog key, said in the candidate's language by the upload status
    expect(english((refused as UploadError).message as 'errors.generic')).toBe('Something went wrong while processing your request.');
  });
});

describe('an answer sent again without the page that recorded it (a reload; issue 20 point 5)', () => {
  /** The answer route's requests: what each sent. The server stores every answer. */
  class AnswerRequest extends FakeXhr {
    static sent: (FormData | string)[] = [];
    send(body: FormData | string) {
      AnswerRequest.sent.push(body);
      setTimeout(() => {
        this.status = 200;
        this.response = { answer: {} };
        this.onload?.();
      }, 0);
    }
  }

  afterEach(() => {
    vi.unstubAllGlobals();
  });

  /** The server holds `held` (its GET answer, or 404 for null) of the take; records the parts it is sent. */
  function serverHolding(held: { bytes: number; recordedMs: number } | null) {
    AnswerRequest.sent = [];
    vi.stubGlobal('XMLHttpRequest', AnswerRequest);
    const parts: { offset: number; size: number; ms: string | null; last: string | null }[] = [];
    server.use(
      http.get(`${env.apiUrl}/api/screenroom/takes/:take`, () =>
        held ? HttpResponse.json({ id: 'abcdefghij12345', question: 'q1', parts: [], finished: false, ...held }) : HttpResponse.json({ status: 404, message: 'The take was not found.', data: {} }, { status: 404 }),
      ),
      // no answer stored yet (one stored already is the next test's)
      http.get(`${env.apiUrl}/api/collections/answers/records/:id`, () =>
        HttpResponse.json({ status: 404, message: "The requested resource wasn't found.", data: {} }, { status: 404 }),
      ),
      http.put(`${env.apiUrl}/api/screenroom/takes/:take/parts/:offset`, async ({ params, request }) => {
        const url = new URL(request.url);
        const size = (await request.arrayBuffer()).byteLength;
        parts.push({ offset: Number(params.offset), size, ms: url.searchParams.get('ms'), last: url.searchParams.get('last') });
        return HttpResponse.json({ take: params.take, offset: Number(params.offset), size });
      }),
    );
    return parts;
  }

  // parts go by Node's fetch, which reads Node's Blob only; the whole file goes in jsdom's FormData, which takes jsdom's
  const answer = (blob: typeof Blob | typeof NodeBlob = NodeBlob) => ({
    ...videoAnswer(new blob(['0123456789'], { type: 'video/webm' }) as Blob),
    durationMs: 2500,
  });

  it('sends only the bytes the server lacks, in parts, then the small request', async () => {
    const parts = serverHolding({ bytes: 4, recordedMs: 3000 });
    await answerTransport.send(answer(), () => undefined);
    expect(parts).toEqual([{ offset: 4, size: 6, ms: '3000', last: '1' }]);
    expect(AnswerRequest.sent).toHaveLength(1);
    expect(JSON.parse(AnswerRequest.sent[0] as string)).toMatchObject({ id: 'abcdefghij12345', staged: true, size: 10 });
  });

  it('sends no byte again when the server holds them all: an empty part ends the take', async () => {
    const parts = serverHolding({ bytes: 10, recordedMs: 1000 });
    await answerTransport.send(answer(), () => undefined);
    expect(parts).toEqual([{ offset: 10, size: 0, ms: '2500', last: '1' }]);
    expect(JSON.parse(AnswerRequest.sent[0] as string)).toMatchObject({ staged: true });
  });

  it('sends nothing when the server holds no take because the answer arrived (an earlier attempt whose response was lost)', async () => {
    const parts = serverHolding(null);
    server.use(http.get(`${env.apiUrl}/api/collections/answers/records/:id`, ({ params }) => HttpResponse.json({ id: params.id })));
    await answerTransport.send(answer(Blob), () => undefined);
    expect(parts).toEqual([]);
    expect(AnswerRequest.sent).toEqual([]);
  });

  it('sends the whole file when the server holds no live take of it, or more bytes than the file has', async () => {
    for (const held of [null, { bytes: 20, recordedMs: 1000 }]) {
      const parts = serverHolding(held);
      await answerTransport.send(answer(Blob), () => undefined);
      expect(parts).toEqual([]);
      expect(AnswerRequest.sent).toHaveLength(1);
      const form = AnswerRequest.sent[0] as FormData;
      expect(form.get('id')).toBe('abcdefghij12345');
      expect((form.get('file') as Blob).size).toBe(10);
    }
  });
});

describe('buildStagedAnswerBody', () => {
  it('marks the answer as staged (its take is under its id), with its size and file name, and carries no file', () => {
    const body = buildStagedAnswerBody(videoAnswer(new Blob(['0123456789'], { type: 'video/webm' })));
    expect(JSON.parse(body)).toEqual({
      id: 'abcdefghij12345',
      candidate: 'cand1',
      question: 'q1',
      staged: true,
      size: 10,
      fileName: 'answer.webm',
    });
  });
});

describe('VideoDrafts and the parts of a take', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  function setup() {
    const drafts: DraftTake[] = [];
    vi.spyOn(answerUploads, 'saveDraft').mockImplementation((take) => {
      drafts.push(take);
      return Promise.resolve();
    });
    const discardedDrafts = vi.spyOn(answerUploads, 'discardDraft').mockResolvedValue(undefined);
    const put = vi.fn<PartTransport['put']>(() => Promise.resolve());
    const discard = vi.fn<PartTransport['discard']>(() => Promise.resolve());
    const kept: RecordedChunk[] = [];
    const removedChunks: string[] = [];
    const chunks = {
      save: (chunk: RecordedChunk) => {
        kept.push(chunk);
        return Promise.resolve();
      },
      remove: (takeId: string) => {
        removedChunks.push(takeId);
        return Promise.resolve();
      },
    };
    const videoDrafts = new VideoDrafts('cand1', 'q1', { put, discard }, chunks);
    const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
    const record = async (...chunks: string[]) => {
      const sink = videoDrafts.startTake();
      const blobs = chunks.map((text) => new Blob([text]));
      blobs.forEach((blob) => sink(blob));
      await settle();
      return { blob: new Blob(blobs, { type: 'video/webm' }), mimeType: 'video/webm' };
    };
    const takeIdsPut = () => [...new Set(put.mock.calls.map(([take]: [StagedTakeRef, ...unknown[]]) => take.takeId))];
    return { drafts, discardedDrafts, put, discard, videoDrafts, record, settle, takeIdsPut, kept, removedChunks };
  }

  it('sends the chunks of a take while it records, under the id its draft (and answer) gets', async () => {
    const { drafts, put, videoDrafts, record, takeIdsPut } = setup();
    const take = await record('abc', 'de');
    expect(put.mock.calls.map(([take, offset]) => [take.candidateId, take.questionId, offset])).toEqual([
      ['cand1', 'q1', 0],
      ['cand1', 'q1', 3],
    ]);
    videoDrafts.keep(take);
    expect(drafts).toHaveLength(1);
    expect(takeIdsPut()).toEqual([drafts[0]!.id]);
    expect(drafts[0]!.id).toMatch(/^[a-z0-9]{15}$/);
  });

  it('drops the parts of a replaced take, on the server too; keeps a take left unsubmitted, here and there (issue 22)', async () => {
    const { drafts, discard, videoDrafts, record, settle, discardedDrafts } = setup();
    videoDrafts.keep(await record('first'));
    videoDrafts.keep(await record('second'));
    await settle();
    expect(drafts.map((d) => d.id)).toHaveLength(2);
    expect(discard.mock.calls.map(([take]) => take.takeId)).toEqual([drafts[0]!.id]);
    expect(discardedDrafts).toHaveBeenCalledWith(drafts[0]!.id);
    videoDrafts.leave();
    await settle();
    expect(discard.mock.calls.map(([take]) => take.takeId)).toEqual([drafts[0]!.id]);
    expect(discardedDrafts).not.toHaveBeenCalledWith(drafts[1]!.id);
  });

  it('keeps the parts of a take still recording when the question is left (an interrupted take, offered again)', async () => {
    const { discard, videoDrafts, settle, takeIdsPut } = setup();
    videoDrafts.startTake()(new Blob(['abc']));
    await settle();
    videoDrafts.leave();
    await settle();
    expect(takeIdsPut()).toHaveLength(1);
    expect(discard).not.toHaveBeenCalled();
  });

  it('marks the part that ends a take, and each part with the length recorded so far', async () => {
    const { put, videoDrafts, settle } = setup();
    const sink = videoDrafts.startTake();
    sink(new Blob(['abc']));
    sink(new Blob([]), true);
    await settle();
    expect(put.mock.calls.map(([, offset, data, marks]) => [offset, data.size, marks.last])).toEqual([
      [0, 3, false],
      [3, 0, true],
    ]);
    for (const [, , , marks] of put.mock.calls) expect(marks.ms).toBeGreaterThanOrEqual(0);
  });

  it('stops staging the take shown once a new one starts (the server keeps one per question), but keeps its draft', async () => {
    const { drafts, discard, discardedDrafts, put, videoDrafts, record, settle, takeIdsPut } = setup();
    videoDrafts.keep(await record('first'));
    videoDrafts.startTake();
    await settle();
    expect(discard.mock.calls.map(([take]) => take.takeId)).toEqual([drafts[0]!.id]);
    expect(discardedDrafts).not.toHaveBeenCalled();
    expect(takeIdsPut()).toEqual([drafts[0]!.id]);
    expect(put).toHaveBeenCalledTimes(1);
  });

  it('keeps a take handed over twice (a double stop) once, with its staged parts', async () => {
    const { drafts, discard, videoDrafts, record, settle, takeIdsPut } = setup();
    const take = await record('abc');
    videoDrafts.keep(take);
    videoDrafts.keep(take);
    await settle();
    expect(drafts).toHaveLength(1);
    expect(drafts[0]!.id).toBe(takeIdsPut()[0]);
    expect(discard).not.toHaveBeenCalled();
  });

  it('does not tie a take to parts that are not its bytes: the parts are dropped, and it keeps their id (the server counted that take once)', async () => {
    const { drafts, discard, videoDrafts, record, settle, takeIdsPut } = setup();
    await record('abc');
    videoDrafts.keep({ blob: new Blob(['something else']), mimeType: 'video/webm' });
    await settle();
    expect(takeIdsPut()).toHaveLength(1);
    expect(discard.mock.calls.map(([take]) => take.takeId)).toEqual(takeIdsPut());
    // uploaded whole under the id of its withdrawn parts: the same take (tests/take-recovery.test.ts, "counts nothing new")
    expect(drafts[0]!.id).toBe(takeIdsPut()[0]);
  });

  it('keeps the staged parts and the draft of what was not submitted when the page goes away (issue 22)', async () => {
    const { discard, discardedDrafts, videoDrafts, record, settle } = setup();
    videoDrafts.keep(await record('shown'));
    window.dispatchEvent(new Event('pagehide'));
    await settle();
    expect(discard).not.toHaveBeenCalled();
    expect(discardedDrafts).not.toHaveBeenCalled();
  });

  it('keeps each chunk on the device while the take records, and lets them go once the take is a draft (issue 22)', async () => {
    const { drafts, videoDrafts, settle, kept, removedChunks } = setup();
    const sink = videoDrafts.startTake();
    sink(new Blob(['abc']));
    sink(new Blob(['de']), true);
    await settle();
    expect(kept.map((c) => [c.candidateId, c.questionId, c.offset, c.data.size, c.last])).toEqual([
      ['cand1', 'q1', 0, 3, false],
      ['cand1', 'q1', 3, 2, true],
    ]);
    expect(new Set(kept.map((c) => c.takeId)).size).toBe(1);
    expect(removedChunks).toEqual([]);
    videoDrafts.keep({ blob: new Blob(['abc', 'de'], { type: 'video/webm' }), mimeType: 'video/webm' });
    await settle();
    expect(drafts[0]!.id).toBe(kept[0]!.takeId);
    expect(removedChunks).toEqual([kept[0]!.takeId]);
  });
});
