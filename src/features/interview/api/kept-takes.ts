import { useEffect, useState } from 'react';
import type { IntlShape } from 'react-intl';

import { CANDIDATE_KEY_HEADER, candidateOptions, pb } from '@/lib/pocketbase';

import { formatClockTime, formatSeconds } from '../i18n/format';
import type { DraftTake, RecordedChunk } from '../upload/answer-store';
import type { Take } from '../upload/media-recorder';
import { isWebm, readBytes } from '../upload/take-check';
import { TakeStager, type StagedUpload } from '../upload/take-stager';

import { partTransport, takePartsRoute } from './answer-transport';
import { answerUploads, recordingChunks } from './answer-uploads';
import type { InterviewQuestion, KeptTake } from './interview-get';
import type { VideoDrafts } from './video-drafts';

/**
 * A take recorded on an earlier visit and never submitted (issue 22, decisions.md "No answer is ever lost"): the
 * browser died before 'Submit answer', or while recording, or the candidate closed the tab or went back. It is
 * offered again when the question's answer form opens: from this device's drafts, from the chunks it kept while
 * the take recorded (cut off mid-recording), or from the server's parts alone (another device). Submitting it sends
 * no byte twice.
 */
export type OfferedTake = {
  draft: DraftTake;
  /** The draft as the answer form shows it. */
  take: Take;
  /** The server's parts of the take, when they are all of it: submitting then sends a small request only. */
  staged: StagedUpload | null;
  /** Stopped by the candidate (false: cut off while recording). */
  finished: boolean;
  /** Its length as recorded, when known. */
  durationMs: number | null;
  /** When it was recorded, or last reached the server (ms since the epoch). */
  savedAt: number;
};

/** The take as the server holds it: every part is there, so a flush has nothing to send. */
function serverStaged(candidateId: string, questionId: string, take: KeptTake): StagedUpload {
  let usable = true;
  return {
    takeId: take.id,
    size: take.bytes,
    get usable() {
      return usable;
    },
    flush: (onProgress) => {
      onProgress?.(1);
      return Promise.resolve(usable);
    },
    discard: () => {
      if (!usable) return;
      usable = false;
      void partTransport.discard({ takeId: take.id, candidateId, questionId }).catch(() => undefined);
    },
  };
}

/** The container of a take's first bytes: WebM's EBML header, else MP4 (Safari). */
async function containerOf(file: Blob): Promise<'webm' | 'mp4'> {
  return isWebm(new Uint8Array(await readBytes(file.slice(0, 4)))) ? 'webm' : 'mp4';
}

/**
 * The take's bytes from the server (GET /api/screenroom/takes/{id} and its parts,
 * server/internal/takes/take_routes.go).
 */
async function downloadTake(candidateId: string, take: KeptTake): Promise<Blob> {
  const described = await pb.send<{ parts: { offset: number; size: number }[] }>(takePartsRoute(take.id), candidateOptions(candidateId));
  const parts = await Promise.all(
    described.parts.map(async (part) => {
      const response = await fetch(pb.buildURL(`${takePartsRoute(take.id)}/parts/${part.offset}`), {
        headers: { [CANDIDATE_KEY_HEADER]: candidateId },
      });
      if (!response.ok) throw new Error(`A part of the kept take could not be read (${response.status})`);
      return response.arrayBuffer();
    }),
  );
  return new Blob(parts);
}

/**
 * The take to offer for `question`, or null: the server's kept take (the newest, since a newer take retires the
 * older) unless this device holds the same take or a newer one. A take read from the server is stored on this device
 * as a draft too, so another crash does not need the network to offer it again.
 */
export async function findKeptTake(candidateId: string, question: InterviewQuestion): Promise<OfferedTake | null> {
  if (question.kind !== 'video') return null;
  const [local, chunks] = await Promise.all([
    answerUploads.findDraft(candidateId, question.id),
    recordingChunks.find(candidateId, question.id),
  ]);
  const kept = question.keptTake ?? null;
  const keptAt = kept ? Date.parse(kept.savedAt.replace(' ', 'T')) : 0;
  const recorded = fromChunks(chunks);
  const recordedAt = recorded ? Math.max(...chunks.map((c) => c.createdAt)) : 0;
  const draftAt = local?.createdAt ?? 0;
  // the newest of the three; the chunks of the server's own take win when they hold at least as many bytes
  const chunksWin =
    recorded && recordedAt >= draftAt && (!kept || (kept.id === recorded.takeId ? recorded.bytes >= kept.bytes : recordedAt >= keptAt));
  if (recorded && chunksWin) return offerChunks(candidateId, question.id, recorded, kept?.id === recorded.takeId ? kept.bytes : 0, recordedAt);
  if (kept && (!local || (local.id !== kept.id && draftAt < keptAt))) return offerServerTake(candidateId, question.id, kept, keptAt);
  if (!local) return null;
  const same = kept?.id === local.id ? kept : null;
  return {
    draft: local,
    take: { blob: local.file, mimeType: local.file.type || (local.fileName.endsWith('.mp4') ? 'video/mp4' : 'video/webm') },
    staged: same && same.bytes === local.file.size ? serverStaged(candidateId, question.id, same) : null,
    finished: true,
    durationMs: local.durationMs ?? (same?.recordedMs || null),
    savedAt: local.createdAt,
  };
}

type Recorded = { takeId: string; parts: RecordedChunk[]; bytes: number };

/** The chunks this device kept of a take, contiguous from 0 (what follows a gap is not the take), or null. */
function fromChunks(chunks: readonly RecordedChunk[]): Recorded | null {
  const parts: RecordedChunk[] = [];
  let bytes = 0;
  for (const chunk of chunks) {
    if (chunk.offset !== bytes) break;
    parts.push(chunk);
    bytes += chunk.data.size;
  }
  return bytes > 0 ? { takeId: parts[0]!.takeId, parts, bytes } : null;
}

/** The server's take, read back from its parts (another device, or a take this device kept nothing of). */
async function offerServerTake(candidateId: string, questionId: string, kept: KeptTake, keptAt: number): Promise<OfferedTake> {
  const bytes = await downloadTake(candidateId, kept);
  const extension = await containerOf(bytes);
  const file = new Blob([bytes], { type: `video/${extension}` });
  const draft: DraftTake = {
    id: kept.id,
    candidateId,
    questionId,
    createdAt: keptAt,
    file,
    fileName: `answer.${extension}`,
    ...(kept.recordedMs ? { durationMs: kept.recordedMs } : {}),
  };
  await answerUploads.saveDraft(draft);
  const staged = serverStaged(candidateId, questionId, kept);
  return { draft, take: { blob: file, mimeType: file.type }, staged, finished: kept.finished, durationMs: kept.recordedMs || null, savedAt: keptAt };
}

/**
 * A take this device kept while it recorded (the browser died before it was a draft): its parts the server holds
 * (`serverBytes` of it) are not sent again; submitting it sends the rest as parts, then the small request.
 */
async function offerChunks(candidateId: string, questionId: string, recorded: Recorded, serverBytes: number, savedAt: number): Promise<OfferedTake> {
  const stager = new TakeStager(recorded.takeId, candidateId, questionId, partTransport);
  stager.restore(
    recorded.parts.map((c) => ({ offset: c.offset, data: c.data, marks: { ms: c.ms, last: c.last } })),
    serverBytes,
  );
  const extension = await containerOf(recorded.parts[0]!.data);
  const file = new Blob(recorded.parts.map((c) => c.data), { type: `video/${extension}` });
  const last = recorded.parts[recorded.parts.length - 1]!;
  const draft: DraftTake = { id: recorded.takeId, candidateId, questionId, createdAt: savedAt, file, fileName: `answer.${extension}`, durationMs: last.ms };
  return { draft, take: { blob: file, mimeType: file.type }, staged: stager, finished: last.last, durationMs: last.ms || null, savedAt };
}

/** What the answer form says of an offered take: "We kept your recording from 14:02 (0:42)". */
export function offeredTakeLabel(intl: IntlShape, take: OfferedTake): string {
  const time = formatClockTime(intl, take.savedAt);
  const length = take.durationMs ? formatSeconds(intl, take.durationMs / 1000) : '';
  if (!take.finished) {
    return length
      ? intl.formatMessage({ id: 'question.kept.interruptedAt' }, { time, length })
      : intl.formatMessage({ id: 'question.kept.interrupted' }, { time });
  }
  return length ? intl.formatMessage({ id: 'question.kept.withLength' }, { time, length }) : intl.formatMessage({ id: 'question.kept' }, { time });
}

type KeptTakeState = { status: 'loading' | 'ready'; offered: OfferedTake | null };

/**
 * Looks for the question's kept take once `open` (the answer form is shown), and hands it to `drafts`, so 'Submit
 * answer' sends it as the take it was. A take that cannot be read back (the network, storage) is not offered: the
 * candidate records as usual, and the server still holds it.
 */
export function useKeptTake(candidateId: string, question: InterviewQuestion, open: boolean, drafts: VideoDrafts): KeptTakeState {
  const [state, setState] = useState<KeptTakeState>({ status: 'loading', offered: null });
  // once per answer form: a refetched interview later must not put an old take back over a new one
  const [question0] = useState(question);
  useEffect(() => {
    if (!open || question0.kind !== 'video') return;
    let current = true;
    void findKeptTake(candidateId, question0)
      .catch((error: unknown) => {
        console.warn('The kept take could not be read', error);
        return null;
      })
      .then((offered) => {
        if (!current) return;
        if (offered) drafts.offer(offered.draft, offered.staged);
        setState({ status: 'ready', offered });
      });
    return () => {
      current = false;
    };
  }, [candidateId, question0, open, drafts]);
  return state;
}
