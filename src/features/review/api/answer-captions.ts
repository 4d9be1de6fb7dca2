import { queryOptions } from '@tanstack/react-query';
import { ClientResponseError } from 'pocketbase';

import { pb } from '@/lib/pocketbase';

/**
 * A video answer's captions (WebVTT) and transcript (text), from the server's routes
 * (server/internal/review/captions.go), which serve them to whoever may fetch the answer's video.
 */
export type TranscriptFile = 'captions.vtt' | 'transcript.txt';

export const transcriptFilePath = (videoAnswerId: string, file: TranscriptFile) =>
  `/api/screenroom/video-answers/${encodeURIComponent(videoAnswerId)}/${file}`;

export const captionQueries = {
  all: () => ['answer-captions'] as const,
  /** `version` is the video answer's `updated`: a transcript stored since is a new file. */
  vtt: (videoAnswerId: string, version: string) =>
    queryOptions({
      queryKey: [...captionQueries.all(), videoAnswerId, version] as const,
      queryFn: ({ signal }) => fetchCaptions(videoAnswerId, signal),
      staleTime: Infinity,
    }),
};

/** The WebVTT text, read with the manager's session (a `<track>` gets it as a same-origin object URL). */
async function fetchCaptions(videoAnswerId: string, signal: AbortSignal): Promise<string> {
  const url = pb.buildURL(transcriptFilePath(videoAnswerId, 'captions.vtt'));
  let res: Response;
  try {
    res = await fetch(url, { headers: { Authorization: pb.authStore.token }, signal });
  } catch (cause) {
    throw new ClientResponseError({ url, status: 0, originalError: cause });
  }
  if (!res.ok) throw new ClientResponseError({ url, status: res.status, response: (await res.json().catch(() => ({}))) as Record<string, unknown> });
  return res.text();
}

/**
 * A download link to the file, with the manager's file token as a link must carry it (it sends no header); '' until
 * there is a token.
 */
export function transcriptDownloadUrl(videoAnswerId: string, file: TranscriptFile, fileToken: string | undefined): string {
  if (!fileToken) return '';
  const query = new URLSearchParams({ token: fileToken, download: '1' });
  return `${pb.buildURL(transcriptFilePath(videoAnswerId, file))}?${query.toString()}`;
}
