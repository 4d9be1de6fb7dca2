import { ClientResponseError } from 'pocketbase';
import { useEffect, useState, useSyncExternalStore } from 'react';

import {
  createIndexedDbAnswerStore,
  newRecordId,
  type DraftTake,
  type PendingAnswer,
  type PendingVideoAnswer,
} from '../upload/answer-store';
import { serverText } from '@/lib/errors';
import { fileExtensionOf, type Take } from '../upload/media-recorder';
import { CANDIDATE_KEY_HEADER, candidateOptions, pb } from '@/lib/pocketbase';
import { Collections } from '@/lib/pocketbase-types';
import { queryClient } from '@/lib/query-client';
import { TakeStager, type PartTransport, type StagedTakeRef } from '../upload/take-stager';
import { UploadError, UploadQueue, type UploadState, type UploadTransport } from '../upload/upload-queue';

import { interviewQueries } from './interview-get';

/** The server's one-request answer route (pocketbase/pb_hooks/answers.pb.js): the answer and its kind record together. */
export const ANSWERS_ROUTE = '/api/screenroom/answers';

/** The server's staging of a take's parts while it is recorded (pocketbase/pb_hooks/takes.pb.js). */
export const takePartsRoute = (takeId: string) => `/api/screenroom/takes/${encodeURIComponent(takeId)}`;

/** The status ANSWERS_ROUTE answers with when the staged parts of a take are missing or incomplete. */
export const TAKE_INCOMPLETE_STATUS = 409;

/** The body of ANSWERS_ROUTE for a video answer whose take the server already holds in parts. */
export function buildStagedAnswerBody(answer: PendingVideoAnswer): string {
  return JSON.stringify({
    id: answer.id,
    candidate: answer.candidateId,
    question: answer.questionId,
    take: answer.id,
    size: answer.file.size,
    fileName: answer.fileName,
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
  return form;
}

/** The server's message for a refused answer: a field's message when there is one (the form's), else the top one. */
export function answerErrorMessage(response: unknown): string {
  const body = response as { message?: unknown; data?: Record<string, { message?: unknown } | undefined> } | null;
  const fieldMessage = Object.values(body?.data ?? {}).find((d) => typeof d?.message === 'string');
  if (typeof fieldMessage?.message === 'string') return serverText(fieldMessage.message);
  return typeof body?.message === 'string' ? serverText(body.message) : 'The upload failed';
}

/** XMLHttpRequest rather than fetch: only it reports upload progress. */
function postAnswer(answer: PendingAnswer, body: FormData | string, onProgress: (fraction: number) => void): Promise<void> {
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
        resolve();
      } else {
        reject(new UploadError(answerErrorMessage(xhr.response), xhr.status, xhr.response));
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
 * small request; when that cannot work (no parts after a reload, a refused part, the server lost them) the whole
 * file goes, as the first way of all.
 */
async function sendAnswer(answer: PendingAnswer, onProgress: (fraction: number) => void): Promise<void> {
  const stager = answer.kind === 'video' ? stagedTakes.get(answer.id) : undefined;
  if (answer.kind === 'video' && stager?.usable && stager.size === answer.file.size) {
    // The parts are most of the work: they fill the progress bar up to the last request.
    if (await stager.flush((fraction) => onProgress(fraction * 0.98))) {
      try {
        await postAnswer(answer, buildStagedAnswerBody(answer), onProgress);
        return;
      } catch (error) {
        if (!(error instanceof UploadError) || error.status !== TAKE_INCOMPLETE_STATUS) throw error;
        // An earlier attempt may have been stored with its response lost (its parts are gone with it).
        if (await answerExists(answer)) return;
      }
    }
    forgetStagedTake(answer.id);
  }
  await postAnswer(answer, buildAnswerForm(answer), onProgress);
}

/** A part is at most 2 MB (most are a second of video, about 150 KB): two minutes is room for a slow connection. */
const PART_TIMEOUT_MS = 120_000;

/** AbortSignal.timeout(), or its equivalent where it is missing (Safari before 16). */
function timeoutSignal(ms: number): AbortSignal {
  if (typeof AbortSignal.timeout === 'function') return AbortSignal.timeout(ms);
  const controller = new AbortController();
  setTimeout(() => controller.abort(), ms);
  return controller.signal;
}

async function putPart(take: StagedTakeRef, offset: number, data: Blob) {
  let response: Response;
  try {
    response = await fetch(pb.buildURL(`${takePartsRoute(take.takeId)}/parts/${offset}?question=${encodeURIComponent(take.questionId)}`), {
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
    throw new UploadError(answerErrorMessage(body), response.status, body);
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

/** The takes being sent in parts in this page, by the id their answer will get. */
const stagedTakes = new Map<string, TakeStager>();

function stageTake(take: TakeStager): void {
  stagedTakes.set(take.takeId, take);
}

function forgetStagedTake(id: string): void {
  stagedTakes.get(id)?.discard();
  stagedTakes.delete(id);
}

async function answerExists(answer: PendingAnswer): Promise<boolean> {
  try {
    await pb.collection(Collections.Answers).getOne(answer.id, candidateOptions(answer.candidateId));
    return true;
  } catch (error) {
    if (error instanceof ClientResponseError && error.status === 404) return false;
    throw new UploadError('The connection was lost', error instanceof ClientResponseError ? error.status : 0);
  }
}

export const answerTransport: UploadTransport = { send: sendAnswer, exists: answerExists };

/** One queue per page: every screen of the interview sees the same uploads. */
export const answerUploads = new UploadQueue({
  store: createIndexedDbAnswerStore(),
  transport: answerTransport,
  onConfirmed: (answer) => {
    // The server assembled (or no longer needs) the take's parts.
    stagedTakes.delete(answer.id);
    void queryClient.invalidateQueries({ queryKey: interviewQueries.detail(answer.candidateId).queryKey });
  },
});

if (typeof window !== 'undefined') {
  // A connection that comes back retries at once instead of waiting out the backoff.
  window.addEventListener('online', () => answerUploads.retryNow());
}

let resumed: Promise<void> | undefined;
/** Loads answers a previous visit left behind, once per page. */
export function resumeAnswerUploads(): Promise<void> {
  resumed ??= answerUploads.resume().catch(() => {
    resumed = undefined;
  });
  return resumed;
}

export function useAnswerUploads(candidateId: string): readonly UploadState[] {
  const all = useSyncExternalStore(answerUploads.subscribe, answerUploads.getSnapshot);
  return all.filter((state) => state.candidateId === candidateId);
}

/** Saves a text answer in IndexedDB, then uploads it in the background. Resolves once it is safely stored. */
export async function submitTextAnswer(answer: { candidateId: string; questionId: string; content: string }): Promise<void> {
  const { candidateId, questionId, content } = answer;
  await answerUploads.enqueue({ id: newRecordId(), candidateId, questionId, createdAt: Date.now(), kind: 'text', content });
}

/**
 * The takes of one question's video answer. A take goes to the server in parts while it is recorded (staged, not an
 * answer). The last finished take is stored on this device as soon as it is recorded (a draft, while the candidate
 * watches it), so submitting it only marks it submitted and sends what is left. A replaced take and the take of a
 * question left unsubmitted are dropped, here and on the server; a draft is never an answer.
 */
export class VideoDrafts {
  private current: { take: DraftTake; saved: Promise<void>; submitted: boolean; staged: TakeStager | null } | null = null;
  private recording: TakeStager | null = null;

  constructor(
    private readonly candidateId: string,
    private readonly questionId: string,
    private readonly parts: PartTransport = partTransport,
  ) {}

  /**
   * A take starts recording: returns where its chunks go (to the server, as they come). The take shown so far stays
   * submittable until the new one is finished (time may run out first), but the server keeps one staged take per
   * question, so from now on that one would go up whole.
   */
  startTake(): (chunk: Blob) => void {
    this.withdrawStaging();
    const staged = new TakeStager(newRecordId(), this.candidateId, this.questionId, this.parts);
    this.recording = staged;
    return (chunk) => staged.push(chunk);
  }

  /** A take is finished: store it, and drop the one it replaces. */
  keep(take: Take): void {
    // The same take again (a second stop: a double click, or the countdown ending as the candidate stopped)
    if (this.current?.take.file === take.blob) return;
    this.dropCurrent();
    // The take the server has been getting in parts, if it is this one (the same bytes, in the same order).
    let staged = this.recording;
    this.recording = null;
    if (staged && staged.size !== take.blob.size) {
      staged.discard();
      staged = null;
    }
    const draft: DraftTake = {
      id: staged?.takeId ?? newRecordId(),
      candidateId: this.candidateId,
      questionId: this.questionId,
      createdAt: Date.now(),
      file: take.blob,
      fileName: `answer.${fileExtensionOf(take.mimeType)}`,
    };
    this.current = { take: draft, saved: answerUploads.saveDraft(draft), submitted: false, staged };
  }

  /** Submits the take (stored already, or still being stored when the click came fast), then uploads it. */
  async submit(take: Take): Promise<void> {
    if (this.current?.take.file !== take.blob) this.keep(take);
    const current = this.current!;
    current.submitted = true;
    if (current.staged) stageTake(current.staged);
    try {
      await current.saved;
      await answerUploads.enqueue({ ...current.take, kind: 'video' });
    } catch (error) {
      current.submitted = false;
      throw error;
    }
  }

  /**
   * The page is going away: the server drops the parts of what was not submitted. The draft stays on this device
   * (another tab may show it); if this page comes back (back/forward cache), submitting it sends the whole file.
   */
  withdrawStaging(): void {
    this.recording?.discard();
    this.recording = null;
    if (this.current && !this.current.submitted) {
      this.current.staged?.discard();
      this.current.staged = null;
    }
  }

  /** The answer form is closing: a take that was not submitted goes, and so does one still recording. */
  leave(): void {
    this.dropCurrent();
    this.recording?.discard();
    this.recording = null;
  }

  private dropCurrent() {
    const previous = this.current;
    this.current = null;
    if (!previous || previous.submitted) return;
    void previous.saved.then(() => answerUploads.discardDraft(previous.take.id));
    previous.staged?.discard();
  }
}

/** One question's VideoDrafts, dropping an unsubmitted take when the question's screen goes away. */
export function useVideoDrafts(candidateId: string, questionId: string): VideoDrafts {
  const [drafts] = useState(() => new VideoDrafts(candidateId, questionId));
  useEffect(() => () => drafts.leave(), [drafts]);
  useEffect(() => {
    // A closed tab's unsubmitted recording does not stay on the server until the cleanup a day later.
    const onPageHide = () => drafts.withdrawStaging();
    window.addEventListener('pagehide', onPageHide);
    return () => window.removeEventListener('pagehide', onPageHide);
  }, [drafts]);
  return drafts;
}
