import 'fake-indexeddb/auto';

import { Blob as NodeBlob } from 'node:buffer';

import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { env } from '@/config/env';
import { FakeXhr } from '@/testing/fake-xhr';
import { clickWhenEnabled } from '@/testing/click';
import { renderRoute } from '@/testing/render-route';
import { server } from '@/testing/msw-server';

import { createIndexedDbAnswerStore } from '../upload/answer-store';

/** What the fake recorder hands over: a WebM header naming a VP8 video and an Opus audio track, then some bytes. */
const RECORDED = `\x1a\x45\xdf\xa3 V_VP8 A_OPUS recorded video`;
/** What a browser that records nothing hands over (WebKitGTK on Debian). */
let recorded = RECORDED;

/** A camera that opens, and a MediaRecorder that hands over a small take when stopped. */
class FakeRecorder {
  static isTypeSupported(type: string) {
    return type.startsWith('video/webm');
  }
  /** The recorder last started. */
  static current: FakeRecorder | null = null;
  /** Its last piece comes after its stop event (Firefox under load), this many ms later; null: before, in order. */
  static lastPieceLateMs: number | null = null;
  state: 'inactive' | 'recording' = 'inactive';
  mimeType = 'video/webm;codecs=vp9,opus';
  ondataavailable: ((event: { data: Blob }) => void) | null = null;
  onstop: (() => void) | null = null;
  onerror: (() => void) | null = null;
  /** What was handed over while recording (a timeslice's pieces): the last piece is the rest of `recorded`. */
  private handed = 0;
  start() {
    this.state = 'recording';
    FakeRecorder.current = this;
  }
  /** A timeslice's piece: the next `length` characters of `recorded`. */
  emit(length: number) {
    this.ondataavailable?.({ data: pieceOf(recorded.slice(this.handed, this.handed + length)) });
    this.handed += length;
  }
  stop() {
    this.state = 'inactive';
    const last = { data: pieceOf(recorded.slice(this.handed)) };
    const late = FakeRecorder.lastPieceLateMs;
    if (late === null) {
      this.ondataavailable?.(last);
      this.onstop?.();
      return;
    }
    this.onstop?.();
    setTimeout(() => this.ondataavailable?.(last), late);
  }
}

function pieceOf(text: string): Blob {
  return new Blob([Uint8Array.from(text, (c) => c.charCodeAt(0))], { type: 'video/webm' });
}

/**
 * The upload's XMLHttpRequest, answered by the test: jsdom's FormData carries jsdom's Blob, which MSW cannot read back
 * in Node. Records what each request sent; the server accepts it.
 */
class FakeUpload extends FakeXhr {
  static sent: { method: string; url: string; headers: Record<string, string>; body: FormData | string }[] = [];
  private request = { method: '', url: '', headers: {} as Record<string, string> };
  private responseHeaders: Record<string, string> = {};
  override open(method: string, url: string) {
    this.request = { ...this.request, method, url };
  }
  override setRequestHeader(name: string, value: string) {
    this.request.headers[name] = value;
  }
  override getResponseHeader(name: string): string | null {
    return this.responseHeaders[name.toLowerCase()] ?? null;
  }
  /** What the server answers (the test may change it): by default it stores the answer. */
  static reply: (body: FormData | string) => { status: number; response: unknown; headers?: Record<string, string> } = (body) => ({
    status: 200,
    response: { answer: { id: typeof body === 'string' ? (JSON.parse(body) as { id: string }).id : body.get('id') } },
  });
  send(body: FormData | string) {
    FakeUpload.sent.push({ ...this.request, body });
    setTimeout(() => {
      const reply = FakeUpload.reply(body);
      ({ status: this.status, response: this.response } = reply);
      this.responseHeaders = Object.fromEntries(Object.entries(reply.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]));
      // no response at all: the connection dropped
      if (this.status === 0) return this.onerror?.();
      this.onload?.();
    }, 0);
  }
}

const storeEveryAnswer = FakeUpload.reply;

beforeEach(async () => {
  // each test starts with nothing kept: an earlier test's confirmed answers stay a day on this device, as they would
  await createIndexedDbAnswerStore().removeKeptBefore(Number.MAX_SAFE_INTEGER);
  recorded = RECORDED;
  FakeRecorder.lastPieceLateMs = null;
  FakeUpload.sent = [];
  FakeUpload.reply = storeEveryAnswer;
  vi.stubGlobal('XMLHttpRequest', FakeUpload);
  const track = { stop: vi.fn() };
  vi.stubGlobal('MediaRecorder', FakeRecorder);
  Object.defineProperty(navigator, 'mediaDevices', {
    configurable: true,
    value: { getUserMedia: vi.fn(() => Promise.resolve({ getTracks: () => [track] })) },
  });
  URL.createObjectURL = vi.fn(() => 'blob:take');
  URL.revokeObjectURL = vi.fn();
});

afterEach(async () => {
  vi.unstubAllGlobals();
  // a take left unsubmitted stays on the device (issue 22), and so does an answer refused for good: each test starts
  // without another test's
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const open = indexedDB.open('screenroom');
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error ?? new Error('IndexedDB failed'));
  });
  for (const name of ['takes', 'pending-answers'].filter((name) => db.objectStoreNames.contains(name))) {
    const tx = db.transaction(name, 'readwrite');
    tx.objectStore(name).clear();
    await new Promise((resolve) => (tx.oncomplete = resolve));
  }
  db.close();
});

/**
 * The interview route with a video question of two takes, then a text question. Each test has its own candidate:
 * the page's upload queue outlives a test, and it counts a question answered once its answer was uploaded.
 */
function interviewApi(video: Record<string, unknown> = {}) {
  const parts: { take: string; offset: number; candidate: string | null; question: string | null }[] = [];
  const dropped: string[] = [];
  server.use(
    // the server records the first opening (issue 17): opened just now
    http.post(`${env.apiUrl}/api/screenroom/interviews/:id/questions/:question/open`, () => {
      const now = new Date().toISOString().replace('T', ' ');
      return HttpResponse.json({ openedAt: now, serverNow: now });
    }),
    http.put(`${env.apiUrl}/api/screenroom/takes/:take/parts/:offset`, ({ params, request }) => {
      const url = new URL(request.url);
      parts.push({
        take: String(params.take),
        offset: Number(params.offset),
        candidate: request.headers.get('X-Candidate-Key'),
        question: url.searchParams.get('question'),
      });
      return HttpResponse.json({ take: params.take, offset: Number(params.offset), size: 1 });
    }),
    // what the server holds of a take, asked by an upload that has no parts of its own to go on from (a reload):
    // none here
    http.get(`${env.apiUrl}/api/screenroom/takes/:take`, () =>
      HttpResponse.json({ status: 404, message: 'The take was not found.', data: {} }, { status: 404 }),
    ),
    http.delete(`${env.apiUrl}/api/screenroom/takes/:take`, ({ params }) => {
      dropped.push(String(params.take));
      return new HttpResponse(null, { status: 204 });
    }),
    http.get(`${env.apiUrl}/api/screenroom/interviews/:id`, ({ params }) =>
      HttpResponse.json({
        candidateId: params.id,
        companyName: 'Globex',
        jobTitle: 'Support engineer',
        consentedAt: '2026-01-01 10:00:00.000Z',
        questions: [
          { id: 'q1', title: 'Introduce yourself', description: 'Tell us about you', timeout: 45, canPreview: true, kind: 'video', takes: 2, ...video },
          { id: 'q2', title: 'Why us', description: 'In writing', timeout: 45, canPreview: true, kind: 'text', takes: 1 },
        ],
        answeredQuestionIds: [],
      }),
    ),
  );
  return { parts, dropped };
}

/** The keys of the interview's IndexedDB stores: finished takes, submitted answers, and confirmed answers kept a day. */
async function stored(): Promise<{ takes: string[]; submitted: string[]; kept: string[] }> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const open = indexedDB.open('screenroom');
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error ?? new Error('IndexedDB failed'));
  });
  const keys = (store: string) =>
    new Promise<string[]>((resolve, reject) => {
      const req = db.transaction(store).objectStore(store).getAllKeys();
      req.onsuccess = () => resolve(req.result.map(String));
      req.onerror = () => reject(req.error ?? new Error('IndexedDB failed'));
    });
  const result = { takes: await keys("takes"), submitted: await keys("pending-answers"), kept: await keys("kept") };
  db.close();
  return result;
}

/**
 * Confirmed by the server: nothing waits to be sent, and each answer is kept on the device for a day (to send again
 * what a restore of the server lost), a video answer with its take.
 */
async function expectConfirmed({ answers = 1, videos = 1 }: { answers?: number; videos?: number } = {}) {
  await waitFor(async () => {
    const { takes, submitted, kept } = await stored();
    expect(submitted).toEqual([]);
    expect(kept).toHaveLength(answers);
    expect(takes).toHaveLength(videos);
    for (const take of takes) expect(kept).toContain(take);
  });
}

async function recordTake() {
  await clickWhenEnabled('Start Recording');
  await userEvent.click(await screen.findByRole('button', { name: 'Stop Recording' }));
  await screen.findByRole('button', { name: 'Submit answer' });
}

/** Opens the question, records one take and submits it. */
async function submitOneTake() {
  await userEvent.click(await screen.findByRole('button', { name: 'View question' }));
  await recordTake();
  await userEvent.click(await screen.findByRole('button', { name: 'Submit answer' }));
}

describe('a video answer', () => {
  it('is stored on the device when the take is finished, and becomes an answer only once it is submitted', async () => {
    const api = interviewApi();
    const view = renderRoute('/candidates/cand1/questions/q1');
    await userEvent.click(await screen.findByRole('button', { name: 'View question' }));
    await recordTake();

    await waitFor(async () => expect((await stored()).takes).toHaveLength(1));
    const [takeId] = (await stored()).takes;
    expect(await stored()).toEqual({ takes: [takeId], submitted: [], kept: [] });
    // the recording went to the server as it was made, under the take's id: parts, not an answer
    await waitFor(() => expect(api.parts).toEqual([{ take: takeId, offset: 0, candidate: 'cand1', question: 'q1' }]));
    expect(FakeUpload.sent).toHaveLength(0);

    await userEvent.click(await screen.findByRole('button', { name: 'Submit answer' }));
    await waitFor(() => expect(FakeUpload.sent).toHaveLength(1));
    const { method, url, headers, body } = FakeUpload.sent[0]!;
    expect([method, url, headers['X-Candidate-Key']]).toEqual(['POST', `${env.apiUrl}/api/screenroom/answers`, 'cand1']);
    // only the request that turns the parts into the answer is left
    expect(JSON.parse(body as string)).toEqual({
      id: takeId,
      candidate: 'cand1',
      question: 'q1',
      staged: true,
      size: RECORDED.length,
      fileName: 'answer.webm',
    });
    await waitFor(() => expect(view.router.state.location.pathname).toBe('/candidates/cand1/questions/q2'));
    // confirmed by the server: kept on the device for a day, with nothing left to send
    await expectConfirmed();
    // the server made the parts the answer: nothing to drop
    expect(api.dropped).toEqual([]);
    expect(FakeUpload.sent).toHaveLength(1);
  });

  it('replaced by a new take drops the old take; leaving the question unsubmitted keeps the last one (issue 22)', async () => {
    const api = interviewApi();
    const view = renderRoute('/candidates/cand2/questions/q1');
    await userEvent.click(await screen.findByRole('button', { name: 'View question' }));
    await recordTake();
    await waitFor(async () => expect((await stored()).takes).toHaveLength(1));
    const [first] = (await stored()).takes;

    await userEvent.click(screen.getByRole('button', { name: 'Record again' }));
    await recordTake();
    await waitFor(async () => {
      const { takes } = await stored();
      expect(takes).toHaveLength(1);
      expect(takes[0]).not.toBe(first);
    });

    const second = (await stored()).takes[0];

    view.unmount();
    // the last take is the candidate's recording: kept on the device and on the server, to be offered again
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await stored()).toEqual({ takes: [second], submitted: [], kept: [] });
    expect(FakeUpload.sent).toHaveLength(0);
    // on the server: the parts of the replaced take only are dropped
    await waitFor(() => expect(api.dropped).toEqual([first]));
    expect(api.parts.map((part) => part.take)).toEqual([first, second]);
  });

  it('goes up whole when the server refuses its parts', async () => {
    interviewApi();
    server.use(
      http.put(`${env.apiUrl}/api/screenroom/takes/:take/parts/:offset`, () =>
        HttpResponse.json({ status: 403, message: 'You cannot record an answer to this question.', data: {} }, { status: 403 }),
      ),
    );
    renderRoute('/candidates/cand3/questions/q1');
    await submitOneTake();
    await waitFor(() => expect(FakeUpload.sent).toHaveLength(1));
    const form = FakeUpload.sent[0]!.body as FormData;
    expect((form.get('file') as File).name).toBe('answer.webm');
    expect((form.get('file') as File).size).toBe(RECORDED.length);
    await expectConfirmed();
  });

  it('goes up whole when the server no longer has its parts (409), once it knows the answer is not stored', async () => {
    const api = interviewApi();
    const looked: string[] = [];
    server.use(
      http.get(`${env.apiUrl}/api/collections/answers/records/:id`, ({ params }) => {
        looked.push(String(params.id));
        return HttpResponse.json({ status: 404, message: 'The requested resource wasn\'t found.', data: {} }, { status: 404 });
      }),
    );
    FakeUpload.reply = (body) =>
      typeof body === 'string'
        ? { status: 409, response: { status: 409, message: 'The take is not complete on the server.', data: {} } }
        : storeEveryAnswer(body);
    renderRoute('/candidates/cand4/questions/q1');
    await submitOneTake();
    await waitFor(() => expect(FakeUpload.sent).toHaveLength(2));
    const [staged, whole] = FakeUpload.sent.map((request) => request.body);
    const takeId = (JSON.parse(staged as string) as { id: string }).id;
    expect(looked).toEqual([takeId]);
    expect((whole as FormData).get('id')).toBe(takeId);
    expect(((whole as FormData).get('file') as File).size).toBe(RECORDED.length);
    await expectConfirmed();
    // and the parts the server may still hold are dropped (a request of its own, which may land after the device's
    // copy is gone)
    await waitFor(() => expect(api.dropped).toEqual([takeId]));
  });

  it('counts as stored, with no second upload, when the 409 comes after the answer was stored (a lost response)', async () => {
    interviewApi();
    server.use(
      http.get(`${env.apiUrl}/api/collections/answers/records/:id`, ({ params }) =>
        HttpResponse.json({ id: params.id, candidate: 'cand5', question: 'q1' }),
      ),
    );
    FakeUpload.reply = () => ({ status: 409, response: { status: 409, message: 'The take is not complete on the server.', data: {} } });
    renderRoute('/candidates/cand5/questions/q1');
    await submitOneTake();
    await expectConfirmed();
    expect(FakeUpload.sent).toHaveLength(1);
    expect(typeof FakeUpload.sent[0]!.body).toBe('string');
  });

  it('sends the small request again after a dropped connection, without the whole file', async () => {
    interviewApi();
    let attempts = 0;
    FakeUpload.reply = (body) => {
      attempts += 1;
      return attempts === 1 ? { status: 0, response: null } : storeEveryAnswer(body);
    };
    renderRoute('/candidates/cand6/questions/q1');
    await submitOneTake();
    // the queue waits a second before the retry
    await waitFor(() => expect(FakeUpload.sent).toHaveLength(2));
    expect(FakeUpload.sent.map((request) => typeof request.body)).toEqual(['string', 'string']);
    await expectConfirmed();
  });

  it('offers a take cut off on another device from the server, and submits it as the take it was (issue 22)', async () => {
    const bytes = 'kept take bytes';
    const savedAt = '2026-11-24 14:02:00.000Z';
    interviewApi({
      takesUsed: 1,
      keptTake: { id: 'keptkeptkept123', bytes: bytes.length, recordedMs: 37_000, finished: false, savedAt },
    });
    server.use(
      http.get(`${env.apiUrl}/api/screenroom/takes/:take`, ({ request }) =>
        request.headers.get('X-Candidate-Key') === 'cand7'
          ? HttpResponse.json({ id: 'keptkeptkept123', bytes: bytes.length, parts: [{ offset: 0, size: bytes.length }] })
          : HttpResponse.json({ status: 404, message: 'The take was not found.', data: {} }, { status: 404 }),
      ),
      http.get(`${env.apiUrl}/api/screenroom/takes/:take/parts/:offset`, () => new HttpResponse(bytes)),
    );
    renderRoute('/candidates/cand7/questions/q1');
    await userEvent.click(await screen.findByRole('button', { name: 'View question' }));
    const time = new Date(Date.parse(savedAt.replace(' ', 'T'))).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' });
    expect(await screen.findByText(`We kept your recording from ${time}, interrupted at 0:37`)).toBeInTheDocument();
    expect(screen.getByText('Take 1 of 2')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Record again' })).toBeInTheDocument();

    await userEvent.click(await screen.findByRole('button', { name: 'Submit answer' }));
    await waitFor(() => expect(FakeUpload.sent).toHaveLength(1));
    // no byte twice: the server's parts become the answer
    expect(JSON.parse(FakeUpload.sent[0]!.body as string)).toEqual({
      id: 'keptkeptkept123',
      candidate: 'cand7',
      question: 'q1',
      staged: true,
      size: bytes.length,
      fileName: 'answer.mp4',
    });
  });

  it('offers a take cut off on this device from the chunks it kept, sending only what the server misses (issue 22)', async () => {
    const take = 'chunkchunkchunk';
    const api = interviewApi({
      takesUsed: 1,
      keptTake: { id: take, bytes: 3, recordedMs: 1000, finished: false, savedAt: '2026-11-24 14:02:00.000Z' },
    });
    // fake-indexeddb copies Node's Blob, not jsdom's (a browser's IndexedDB stores either): this device's Blobs are Node's
    vi.stubGlobal('Blob', NodeBlob);
    const store = createIndexedDbAnswerStore();
    const chunk = (offset: number, text: string, ms: number) =>
      store.putChunk({ takeId: take, candidateId: 'cand8', questionId: 'q1', offset, data: new NodeBlob([text]) as unknown as Blob, ms, last: false, createdAt: Date.now() });
    await chunk(0, 'abc', 1000);
    await chunk(3, 'defg', 2000);
    renderRoute('/candidates/cand8/questions/q1');
    await userEvent.click(await screen.findByRole('button', { name: 'View question' }));
    expect(await screen.findByText(/^We kept your recording from \d\d:\d\d, interrupted at 0:02$/)).toBeInTheDocument();

    await userEvent.click(await screen.findByRole('button', { name: 'Submit answer' }));
    await waitFor(() => expect(FakeUpload.sent).toHaveLength(1));
    // the server had the first 3 bytes: only the part after them went, then the small request for all 7
    expect(api.parts.map((part) => [part.take, part.offset])).toEqual([[take, 3]]);
    expect(JSON.parse(FakeUpload.sent[0]!.body as string)).toMatchObject({ id: take, staged: true, size: 7 });
  });

  it('never queues or uploads a take the browser recorded nothing of, says so, and gives the take back (issue 23)', async () => {
    const api = interviewApi();
    recorded = '';
    renderRoute('/candidates/cand9/questions/q1');
    await userEvent.click(await screen.findByRole('button', { name: 'View question' }));
    await clickWhenEnabled('Start Recording');
    await userEvent.click(await screen.findByRole('button', { name: 'Stop Recording' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Your browser did not record anything. Try again, or open this link in Chrome, Edge, Firefox or Safari.',
    );
    expect(screen.queryByRole('button', { name: 'Submit answer' })).not.toBeInTheDocument();
    expect(screen.getByText('Take 1 of 2')).toBeInTheDocument();
    expect(FakeUpload.sent).toHaveLength(0);
    expect(api.parts).toEqual([]);
    expect((await stored()).submitted).toEqual([]);

    // 'Try again' with a browser that records: the take counts as the first one
    recorded = RECORDED;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await recordTake();
    expect(screen.getByText('Take 1 of 2')).toBeInTheDocument();
  });

  it('records a take started the moment the camera is ready (issue 24)', async () => {
    interviewApi();
    renderRoute('/candidates/cand31/questions/q1');
    // a candidate (or a busy machine's test) clicking in the same instant the button turns on, before React's
    // effects of that render have run: the click must find a recorder to start
    const clickedAtOnce = new Promise<void>((resolve) => {
      const observer = new MutationObserver(() => {
        const button = screen.queryByRole('button', { name: 'Start Recording' });
        if (!button || (button as HTMLButtonElement).disabled) return;
        observer.disconnect();
        button.click();
        resolve();
      });
      observer.observe(document.body, { subtree: true, childList: true, attributes: true });
    });
    await userEvent.click(await screen.findByRole('button', { name: 'View question' }));
    await clickedAtOnce;
    await userEvent.click(await screen.findByRole('button', { name: 'Stop Recording' }));
    expect(await screen.findByRole('button', { name: 'Submit answer' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it("keeps a take's last piece that comes after the recorder's stop event (Firefox under load), in its file and its parts", async () => {
    const api = interviewApi();
    FakeRecorder.lastPieceLateMs = 50;
    renderRoute('/candidates/cand32/questions/q1');
    await userEvent.click(await screen.findByRole('button', { name: 'View question' }));
    await clickWhenEnabled('Start Recording');
    FakeRecorder.current!.emit(10);
    await userEvent.click(await screen.findByRole('button', { name: 'Stop Recording' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Submit answer' }));
    // submitted as the staged take: one small request naming it, its parts the whole recording, nothing dropped
    await waitFor(() => expect(FakeUpload.sent).toHaveLength(1));
    const submitted = JSON.parse(FakeUpload.sent[0]!.body as string) as { id: string };
    expect(api.parts.map((part) => part.take)).toEqual([submitted.id, submitted.id]);
    expect(api.parts.map((part) => part.offset)).toEqual([0, 10]);
    expect(api.dropped).toEqual([]);
  });

  it('goes up whole under the id of its parts when the server refused one midway: the same take, never one more (issue 22)', async () => {
    const api = interviewApi();
    const refused: string[] = [];
    server.use(
      http.put(`${env.apiUrl}/api/screenroom/takes/:take/parts/:offset`, ({ params }) => {
        refused.push(String(params.take));
        return HttpResponse.json({ status: 400, message: 'The part is too big.', data: {} }, { status: 400 });
      }),
    );
    renderRoute('/candidates/cand33/questions/q1');
    await userEvent.click(await screen.findByRole('button', { name: 'View question' }));
    await clickWhenEnabled('Start Recording');
    FakeRecorder.current!.emit(10);
    await waitFor(() => expect(refused).toHaveLength(1));
    await userEvent.click(await screen.findByRole('button', { name: 'Stop Recording' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Submit answer' }));
    await waitFor(() => expect(FakeUpload.sent).toHaveLength(1));
    const form = FakeUpload.sent[0]!.body as FormData;
    expect((form.get('file') as File).size).toBe(RECORDED.length);
    expect(form.get('id')).toBe(refused[0]);
    await waitFor(() => expect(api.dropped).toEqual([refused[0]]));
  });

  it('never queues a take without sound, and says what to check (issue 23)', async () => {
    interviewApi();
    recorded = '\x1a\x45\xdf\xa3 V_VP8 video only';
    renderRoute('/candidates/cand10/questions/q1');
    await userEvent.click(await screen.findByRole('button', { name: 'View question' }));
    await clickWhenEnabled('Start Recording');
    await userEvent.click(await screen.findByRole('button', { name: 'Stop Recording' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Your recording has no sound. Check that your microphone is on and allowed for this page, then try again.',
    );
    expect(FakeUpload.sent).toHaveLength(0);
  });
});

/** What the candidate reads while the server cannot store an answer (issue 26). */
const NO_SPACE = 'We could not store your answer yet. It is kept on this device and will be sent automatically.';

/** How long a full server asks to wait, in seconds (the queue's own first wait is 1 s). */
const RETRY_AFTER_S = 5;

/** What a server with a full disk answers (issue 26): 507 Insufficient Storage, with Retry-After. */
function insufficientStorage() {
  return HttpResponse.json(
    { status: 507, message: 'database or disk is full', data: {} },
    { status: 507, headers: { 'Retry-After': String(RETRY_AFTER_S) } },
  );
}

/**
 * The answer route of a server whose disk is full: it refuses the requests `refused` picks with 507 and Retry-After
 * until `free()`, then stores as usual. `storedIds`: the answers it stored, one per successful request.
 */
function fullDisk(refused: (body: FormData | string) => boolean = () => true) {
  let full = true;
  const storedIds: string[] = [];
  let refusals = 0;
  FakeUpload.reply = (body) => {
    if (full && refused(body)) {
      refusals += 1;
      return {
        status: 507,
        response: { status: 507, message: 'database or disk is full', data: {} },
        headers: { 'Retry-After': String(RETRY_AFTER_S) },
      };
    }
    storedIds.push(typeof body === 'string' ? (JSON.parse(body) as { id: string }).id : (body.get('id') as string));
    return storeEveryAnswer(body);
  };
  return {
    storedIds,
    refusals: () => refusals,
    free: () => {
      full = false;
    },
  };
}

/** Skips the wait the server asked for (the fake clock otherwise runs as usual). */
async function waitOutRetryAfter() {
  await vi.advanceTimersByTimeAsync(RETRY_AFTER_S * 1000);
}

describe('a server out of space (issue 26)', () => {
  beforeEach(() => {
    // The clock runs as usual (the screens, the fake recorder and upload); only the server's Retry-After is skipped.
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('retries the whole-file upload refused with 507, says so meanwhile, and stores it once when space is back', async () => {
    interviewApi();
    server.use(
      http.put(`${env.apiUrl}/api/screenroom/takes/:take/parts/:offset`, () =>
        HttpResponse.json({ status: 403, message: 'You cannot record an answer to this question.', data: {} }, { status: 403 }),
      ),
    );
    const disk = fullDisk();
    renderRoute('/candidates/cand11/questions/q1');
    await submitOneTake();

    expect(await screen.findByText(NO_SPACE)).toBeInTheDocument();
    expect(screen.queryByText(/Something went wrong|disk is full|could not be uploaded/)).not.toBeInTheDocument();
    // kept on the device, never dropped on a refusal
    expect((await stored()).submitted).toHaveLength(1);
    expect(disk.storedIds).toEqual([]);

    disk.free();
    await waitOutRetryAfter();
    await waitFor(() => expect(screen.queryByText(NO_SPACE)).not.toBeInTheDocument());
    await expectConfirmed();
    expect(disk.storedIds).toHaveLength(1);
    expect(disk.refusals()).toBeGreaterThanOrEqual(1);
    // every try was the whole file under the same id
    const bodies = FakeUpload.sent.map((request) => request.body as FormData);
    expect(bodies.every((body) => body.get('file') instanceof File && body.get('id') === disk.storedIds[0])).toBe(true);
  });

  it('retries a part refused with 507 after the pause, then turns the parts into the answer once', async () => {
    interviewApi();
    let partsFull = true;
    const partsStored: number[] = [];
    server.use(
      http.put(`${env.apiUrl}/api/screenroom/takes/:take/parts/:offset`, ({ params }) => {
        if (partsFull) return insufficientStorage();
        partsStored.push(Number(params.offset));
        return HttpResponse.json({ take: params.take, offset: Number(params.offset), size: 1 });
      }),
    );
    const disk = fullDisk();
    renderRoute('/candidates/cand12/questions/q1');
    await submitOneTake();

    expect(await screen.findByText(NO_SPACE)).toBeInTheDocument();
    // the submit waits for the parts: nothing was asked of the answer route yet
    expect(FakeUpload.sent).toHaveLength(0);
    expect((await stored()).submitted).toHaveLength(1);

    partsFull = false;
    disk.free();
    await waitOutRetryAfter();
    await waitFor(() => expect(screen.queryByText(NO_SPACE)).not.toBeInTheDocument());
    await expectConfirmed();
    expect(partsStored[0]).toBe(0);
    expect(FakeUpload.sent).toHaveLength(1);
    expect(JSON.parse(FakeUpload.sent[0]!.body as string)).toMatchObject({ id: disk.storedIds[0], staged: true });
    expect(disk.storedIds).toHaveLength(1);
  });

  it('retries the staged submit refused with 507, and stores the answer once when space is back', async () => {
    interviewApi();
    const disk = fullDisk();
    renderRoute('/candidates/cand13/questions/q1');
    await submitOneTake();

    expect(await screen.findByText(NO_SPACE)).toBeInTheDocument();
    expect((await stored()).submitted).toHaveLength(1);

    disk.free();
    await waitOutRetryAfter();
    await waitFor(() => expect(screen.queryByText(NO_SPACE)).not.toBeInTheDocument());
    await expectConfirmed();
    expect(disk.storedIds).toHaveLength(1);
    // the small request each time, never the whole file
    expect(FakeUpload.sent.every((request) => typeof request.body === 'string')).toBe(true);
    expect(FakeUpload.sent.length).toBe(disk.refusals() + 1);
  });

  it('does not thank the candidate while the last answer waits for space; the thank-you comes by itself once it is stored', async () => {
    interviewApi();
    // the video answer goes through; the text answer of the last question meets the full disk
    const disk = fullDisk((body) => typeof body !== 'string' && body.has('content'));
    const view = renderRoute('/candidates/cand14/questions/q1');
    await submitOneTake();
    await userEvent.click(await screen.findByRole('button', { name: 'View question' }));
    await userEvent.type(await screen.findByLabelText('Your answer'), 'Because');
    await userEvent.click(await screen.findByRole('button', { name: 'Submit answer' }));

    await waitFor(() => expect(view.router.state.location.pathname).toBe('/candidates/cand14/finish'));
    expect(await screen.findByText(NO_SPACE)).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Sending your answers' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Thank you' })).not.toBeInTheDocument();
    expect(screen.queryByText("We'll get back to you soon")).not.toBeInTheDocument();
    expect((await stored()).submitted).toHaveLength(1);

    disk.free();
    await waitOutRetryAfter();
    expect(await screen.findByRole('heading', { name: 'Thank you' })).toBeInTheDocument();
    expect(screen.getByText("We'll get back to you soon")).toBeInTheDocument();
    expect(screen.queryByText(NO_SPACE)).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Sending your answers' })).not.toBeInTheDocument();
    // the video answer and the text answer, each stored once
    expect(disk.storedIds).toHaveLength(2);
    expect(new Set(disk.storedIds).size).toBe(2);
    await expectConfirmed({ answers: 2 });
  });

  it('still treats a refusal a retry cannot fix (400) as final: kept on the device, no thank-you, no retry by itself', async () => {
    interviewApi();
    server.use(
      http.get(`${env.apiUrl}/api/collections/answers/records/:id`, () =>
        HttpResponse.json({ status: 404, message: "The requested resource wasn't found.", data: {} }, { status: 404 }),
      ),
    );
    FakeUpload.reply = (body) =>
      typeof body !== 'string' && body.has('content')
        ? { status: 400, response: { status: 400, message: 'Failed to create record.', data: {} } }
        : storeEveryAnswer(body);
    const view = renderRoute('/candidates/cand15/questions/q1');
    await submitOneTake();
    await userEvent.click(await screen.findByRole('button', { name: 'View question' }));
    await userEvent.type(await screen.findByLabelText('Your answer'), 'Because');
    await userEvent.click(await screen.findByRole('button', { name: 'Submit answer' }));

    await waitFor(() => expect(view.router.state.location.pathname).toBe('/candidates/cand15/finish'));
    expect(
      await screen.findByText(
        'Your answer could not be uploaded. Something went wrong while processing your request. It is kept on this device.',
      ),
    ).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Some of your answers have not arrived' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Thank you' })).not.toBeInTheDocument();
    expect(screen.queryByText(NO_SPACE)).not.toBeInTheDocument();
    const sent = FakeUpload.sent.length;
    await vi.advanceTimersByTimeAsync(120_000);
    expect(FakeUpload.sent).toHaveLength(sent);
    expect((await stored()).submitted).toHaveLength(1);
  });
});
