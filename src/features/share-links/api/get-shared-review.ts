import { queryOptions } from '@tanstack/react-query';

import { env } from '@/config/env';
import type { TranscriptSegment } from '@/components/timed-transcript';

/**
 * The shared page's one read, GET /api/screenroom/shared/{token} (server/internal/review/share_links.go), for anyone
 * holding the link. Sent with plain fetch, not the PocketBase client: the page never reads or sends a session
 * (whoever opens it may be signed in as someone else, or nobody) and the server never makes one.
 */

export type { TranscriptSegment };

export type SharedRatings = {
  /** the average stars of the answer, or null when nobody rated it */
  average: number | null;
  count: number;
  byManager: { managerName: string; stars: number }[];
};

export type SharedVideoAnswer = {
  kind: 'video';
  id: string;
  /** the streaming route, a path on the API's origin */
  url: string;
  mimeType: string;
  durationSeconds: number;
  transcriptStatus: string;
  transcript: string;
  transcriptSegments: TranscriptSegment[] | null;
  /** the captions (WebVTT) and the transcript as text, paths on the API's origin, only when the answer has them */
  captionsUrl?: string;
  transcriptUrl?: string;
  /** the transcript's language: the job's */
  language?: string;
  ratings?: SharedRatings;
};

export type SharedTextAnswer = { kind: 'text'; content: string; ratings?: SharedRatings };

export type SharedQuestion = {
  title: string;
  kind: 'video' | 'text' | null;
  answer: SharedVideoAnswer | SharedTextAnswer | null;
};

export type SharedComment = { authorName: string; created: string; text: string };

export type SharedReview = {
  companyName: string;
  /** the company's logo (a public file), a path on the API's origin; null without one */
  companyLogoUrl: string | null;
  jobTitle: string;
  candidateEmail: string;
  includeFeedback: boolean;
  questions: SharedQuestion[];
  /** only when the link includes ratings and comments */
  comments?: SharedComment[];
};

/** Why a link opens nothing: the server's three refusals, in the page's own words. */
export type SharedLinkProblem = 'not-valid' | 'expired' | 'revoked';

export class SharedLinkError extends Error {
  constructor(
    readonly problem: SharedLinkProblem | null,
    readonly status: number,
  ) {
    super(`GET shared review: ${status}${problem ? ` (${problem})` : ''}`);
    this.name = 'SharedLinkError';
  }
}

/** A path the server answered, on the API's origin (the video's and the logo's). */
export function apiUrl(path: string): string {
  return `${env.apiUrl.replace(/\/+$/, '')}${path}`;
}

const KNOWN_REFUSALS: Record<string, SharedLinkProblem> = {
  'This link has expired.': 'expired',
  'This link was revoked.': 'revoked',
  'This link is not valid.': 'not-valid',
};

export async function getSharedReview(token: string, signal?: AbortSignal): Promise<SharedReview> {
  const res = await fetch(apiUrl(`/api/screenroom/shared/${encodeURIComponent(token)}`), {
    signal: signal ?? null,
    // no cookie, no Authorization: the link is the only authority
    credentials: 'omit',
    headers: { Accept: 'application/json' },
  });
  if (res.ok) return (await res.json()) as SharedReview;
  let message = '';
  try {
    const body = (await res.json()) as { message?: unknown };
    if (typeof body.message === 'string') message = body.message;
  } catch {
    // not JSON: an error of another kind
  }
  if (res.status === 404) throw new SharedLinkError('not-valid', 404);
  const known = KNOWN_REFUSALS[message];
  if (res.status === 410 && known) throw new SharedLinkError(known, 410);
  console.error('GET shared review failed', res.status, message);
  throw new SharedLinkError(null, res.status);
}

/** A video answer's captions through the link, as WebVTT text (the `<track>` loads it as a same-origin object URL). */
export const sharedCaptionsQuery = (captionsUrl: string) =>
  queryOptions({
    queryKey: ['shared-captions', captionsUrl] as const,
    queryFn: ({ signal }) => getSharedCaptions(captionsUrl, signal),
    staleTime: Infinity,
  });

async function getSharedCaptions(captionsUrl: string, signal?: AbortSignal): Promise<string> {
  const res = await fetch(apiUrl(captionsUrl), { signal: signal ?? null, credentials: 'omit' });
  if (!res.ok) throw new SharedLinkError(null, res.status);
  return res.text();
}

/** A download link to one of the link's transcript files. */
export function sharedDownloadUrl(path: string | undefined): string | undefined {
  return path ? `${apiUrl(path)}?download=1` : undefined;
}
