import { ClientResponseError } from 'pocketbase';

import { serverText } from '@/lib/errors';
import { CANDIDATE_KEY_HEADER, candidateOptions, pb } from '@/lib/pocketbase';
import { Collections } from '@/lib/pocketbase-types';

import type { PendingAnswer, PendingVideoAnswer } from '../upload/answer-store';
import { TakeStager, type PartMarks, type PartTransport, type StagedTakeRef, type StagedUpload } from '../upload/take-stager';
import { UploadError, type UploadTransport } from '../upload/upload-queue';

import type { MessageKey } from '../i18n/message-keys';

import { CONSENT_REQUIRED_PROBLEM, CONSENT_REQUIRED_SERVER } from './give-consent';
import { REFUSAL_KEYS, refusalCode } from './refusals';

// The interview's answer routes on the server, and the one way their refusals become an UploadError.

/** The server's one-request answer route (server/internal/answers): the answer and its kind record together. */
export const ANSWERS_ROUTE = '/api/screenroom/answers';

/** The server's staging of a take's parts while it is recorded (server/internal/takes/take_routes.go). */
export const takePartsRoute = (takeId: string) => `/api/screenroom/takes/${encodeURIComponent(takeId)}`;

/** The status ANSWERS_ROUTE answers with when the staged parts of a take are missing or incomplete. */
export const TAKE_INCOMPLETE_STATUS = 409;

/** The body of ANSWERS_ROUTE for a video answer whose take the server already holds in parts. */
export function buildStagedAnswerBody(answer: PendingVideoAnswer): string {
  return JSON.stringify({
    id: answer.id,
    candidate: answer.candidateId,
    question: answer.questionId,
    staged: true,
    size: answer.file.size,
    fileName: answer.fileName,
    ...(answer.receipt ? { receipt: answer.receipt } : {}),
  });
}

/** The body of ANSWERS_ROUTE: the answer with its client-made id, and its file or its text. */
export function buildAnswerForm(answer: PendingAnswer): FormData {
  const form = new FormData();
  form.append('id', answer.id);
  form.append('candidate', answer.candidateId);
  form.append('question', answer.questionId);
  if (answer.kind === 'video') form.append('file', answer.file, answer.fileName);
  else form.append('content', answer.content);
  // an answer the server stored once and lost, sent again: the server's receipt from then
  if (answer.receipt) form.append('receipt', answer.receipt);
  return form;
}

/** Said of any refusal the interview has no words of its own for (decisions.md: no server wording reaches a user). */
export const GENERIC_UPLOAD_PROBLEM: MessageKey = 'errors.generic';

/**
 * What the candidate reads of a refused answer or part, in the interview's own words: a key of the catalogs, said in
 * the candidate's language by the upload status (the queue keeps it as the failure's text); the server's own message
 * goes to the console. Known refusals: no take left, a recording over the size limit, a file the server cannot use, the
 * question already answered (by this answer's first attempt: the queue then finds it stored), and issue 17's coded
 * refusals (refusals.ts).
 */
export function answerProblemKey(response: unknown, status = 0): MessageKey {
  const body = response as { message?: unknown; data?: Record<string, { code?: unknown; message?: unknown } | undefined> } | null;
  const messages = [body?.message, ...Object.values(body?.data ?? {}).map((d) => d?.message)].filter((m) => typeof m === 'string');
  if (messages.length) console.warn('The server refused an answer:', ...messages);
  // issue 17's refusals carry a code: the interview closed, the invitation was withdrawn, the time was over
  const code = refusalCode(body);
  if (code) return REFUSAL_KEYS[code];
  const said = messages.map((m) => serverText(m));
  if (said.includes(serverText(CONSENT_REQUIRED_SERVER))) return CONSENT_REQUIRED_PROBLEM;
  if (said.includes('You have used all your takes for this question')) return 'upload.problem.noTakeLeft';
  if (said.includes('This question has already been answered')) return 'upload.problem.alreadyAnswered';
  if (status === 413 || said.some((m) => /larger than|too large|maximum allowed size/i.test(m))) {
    return 'upload.problem.tooLarge';
  }
  if (body?.data?.file) return 'upload.problem.unusable';
  return GENERIC_UPLOAD_PROBLEM;
}

/**
 * The wait a refusal's Retry-After asks for, in ms: delay-seconds or an HTTP date (RFC 9110 §10.2.3); undefined when
 * it is missing or unreadable (the queue's own backoff applies). Cross-origin (development), the server must expose
 * the header for it to be read here.
 */
export function parseRetryAfter(header: string | null | undefined, now = Date.now()): number | undefined {
  const value = header?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  // every HTTP date starts with its day's name ('Tue, 24 Nov 2026 10:00:12 GMT'); Date.parse reads '-5' as a year
  if (!/^[a-z]{3}/i.test(value)) return undefined;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** The receipt in the answers route's reply ('' when it gave none). */
function receiptOf(response: unknown): string {
  const receipt = (response as { receipt?: unknown } | null)?.receipt;
  return typeof receipt === 'string' ? receipt : '';
}

/** XMLHttpRequest rather than fetch: only it reports upload progress. Resolves with the server's receipt. */
function postAnswer(answer: PendingAnswer, body: FormData | string, onProgress: (fraction: number) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', pb.buildURL(ANSWERS_ROUTE));
    xhr.setRequestHeader(CANDIDATE_KEY_HEADER, answer.candidateId);
    xhr.setRequestHeader('Accept-Language', 'en-US');
    if (typeof body === 'string') xhr.setRequestHeader('Content-Type', 'application/json');
    xhr.responseType = 'json';
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(1);
        resolve(receiptOf(xhr.response));
      } else {
        const retryAfter = parseRetryAfter(xhr.getResponseHeader('Retry-After'));
        reject(new UploadError(answerProblemKey(xhr.response, xhr.status), xhr.status, xhr.response, retryAfter));
      }
    };
    xhr.onerror = () => reject(new UploadError('The connection was lost', 0));
    xhr.ontimeout = () => reject(new UploadError('The upload timed out', 0));
    xhr.onabort = () => reject(new UploadError('The upload was interrupted', 0));
    xhr.send(body);
  });
}

/**
 * Uploads an answer. A video take the server got in parts while it was recorded only needs its missing parts and a
 * small request. Without the page that recorded it (a reload, a crash), the server is asked which bytes of the take
 * it holds and gets the rest in parts (issue 20: a whole file in one request costs the server its size in memory).
 * Only when the server holds no live take of it (never staged, or withdrawn), or the parts cannot work (a refused
 * part, the server lost them), does the whole file go, as the first way of all.
 */
async function sendAnswer(answer: PendingAnswer, onProgress: (fraction: number) => void, stager?: StagedUpload): Promise<string> {
  if (answer.kind === 'video') {
    const staged = stager ?? (await resumeStaging(answer));
    if (staged === 'stored') return answer.receipt ?? '';
    if (staged?.usable && staged.takeId === answer.id && staged.size === answer.file.size) {
      const stored = await submitStaged(answer, staged, onProgress);
      if (stored !== false) return stored;
      // The take goes up whole after all: its parts are withdrawn (and every later attempt sends the whole file).
      staged.discard();
    }
  }
  return postAnswer(answer, buildAnswerForm(answer), onProgress);
}

/**
 * Sends the parts the server misses, then the small request: the server's receipt once stored, false when the parts
 * cannot work.
 */
async function submitStaged(answer: PendingVideoAnswer, staged: StagedUpload, onProgress: (fraction: number) => void): Promise<string | false> {
  // The parts are most of the work: they fill the progress bar up to the last request.
  if (!(await staged.flush((fraction) => onProgress(fraction * 0.98)))) return false;
  try {
    return await postAnswer(answer, buildStagedAnswerBody(answer), onProgress);
  } catch (error) {
    if (!(error instanceof UploadError) || error.status !== TAKE_INCOMPLETE_STATUS) throw error;
    // An earlier attempt may have been stored with its response lost (its parts are gone with it).
    return (await answerExists(answer)) ? (answer.receipt ?? '') : false;
  }
}

/**
 * What the server holds of a live take (GET takePartsRoute, server/internal/takes/take_routes.go): bytes contiguous
 * from 0.
 */
type HeldTake = { bytes: number; recordedMs?: number | null };

/**
 * The stored answer's take as parts again, when the server holds a live take under its id: the bytes it has are
 * not sent again, the rest of the stored file follows in parts. 'stored' when the answer is (an earlier attempt
 * arrived, its response lost: its take is gone with it). Null when the server holds none of it (never staged,
 * withdrawn) or more than the file (not this file's bytes).
 */
async function resumeStaging(answer: PendingVideoAnswer & { durationMs?: number }): Promise<StagedUpload | 'stored' | null> {
  let held: HeldTake;
  try {
    held = await pb.send<HeldTake>(
      takePartsRoute(answer.id),
      // a stalled connection fails the attempt (tried again later) instead of holding the upload forever
      candidateOptions(answer.candidateId, { requestKey: null, signal: timeoutSignal(PART_TIMEOUT_MS) }),
    );
  } catch (error) {
    if (!(error instanceof ClientResponseError) || error.status !== 404) {
      throw new UploadError('The connection was lost', error instanceof ClientResponseError ? error.status : 0);
    }
    return (await answerExists(answer)) ? 'stored' : null;
  }
  const bytes = Number(held.bytes) || 0;
  if (bytes > answer.file.size) return null;
  const ms = Math.max(held.recordedMs ?? 0, answer.durationMs ?? 0);
  const staged = new TakeStager(answer.id, answer.candidateId, answer.questionId, partTransport);
  staged.restore(bytes ? [{ offset: 0, data: answer.file.slice(0, bytes), marks: { ms, last: false } }] : [], bytes);
  // the rest, cut into parts, the last one marking the take finished (an empty one when the server has every byte)
  staged.push(answer.file.slice(bytes), true, ms);
  return staged;
}

/** A part is at most 2 MB (most are a second of video, about 150 KB): two minutes is room for a slow connection. */
const PART_TIMEOUT_MS = 120_000;

/** AbortSignal.timeout(), or its equivalent where it is missing (Safari before 16). */
export function timeoutSignal(ms: number): AbortSignal {
  if (typeof AbortSignal.timeout === 'function') return AbortSignal.timeout(ms);
  const controller = new AbortController();
  setTimeout(() => controller.abort(), ms);
  return controller.signal;
}

async function putPart(take: StagedTakeRef, offset: number, data: Blob, marks: PartMarks) {
  const query = new URLSearchParams({ question: take.questionId, ms: String(Math.round(marks.ms)) });
  if (marks.last) query.set('last', '1');
  let response: Response;
  try {
    response = await fetch(pb.buildURL(`${takePartsRoute(take.takeId)}/parts/${offset}?${query.toString()}`), {
      method: 'PUT',
      headers: { [CANDIDATE_KEY_HEADER]: take.candidateId, 'Content-Type': 'application/octet-stream' },
      body: data,
      // A stalled connection fails the part (sent again later) instead of holding the take forever.
      signal: timeoutSignal(PART_TIMEOUT_MS),
    });
  } catch {
    throw new UploadError('The connection was lost', 0);
  }
  if (!response.ok) {
    const body: unknown = await response.json().catch(() => null);
    const retryAfter = parseRetryAfter(response.headers.get('Retry-After'));
    throw new UploadError(answerProblemKey(body, response.status), response.status, body, retryAfter);
  }
}

export const partTransport: PartTransport = {
  put: putPart,
  discard: async (take) => {
    await fetch(pb.buildURL(takePartsRoute(take.takeId)), {
      method: 'DELETE',
      headers: { [CANDIDATE_KEY_HEADER]: take.candidateId },
      // still sent when the page is closing (pagehide)
      keepalive: true,
    });
  },
};

export async function answerExists(answer: PendingAnswer): Promise<boolean> {
  try {
    await pb.collection(Collections.Answers).getOne(answer.id, candidateOptions(answer.candidateId));
    return true;
  } catch (error) {
    if (error instanceof ClientResponseError && error.status === 404) return false;
    throw new UploadError('The connection was lost', error instanceof ClientResponseError ? error.status : 0);
  }
}

/** The transport of the page's upload queue: a take staged in parts goes as a small request, everything else whole. */
export const answerTransport: UploadTransport<StagedUpload> = { send: sendAnswer, exists: answerExists };
