import { infiniteQueryOptions } from '@tanstack/react-query';

import { pb } from '@/lib/pocketbase';

/** One answer that holds the words searched for (server/internal/search/search.go). */
export type SearchHit = {
  answer: string;
  kind: 'text' | 'video';
  candidate: { id: string; email: string };
  job: { id: string; title: string };
  question: { id: string; title: string };
  /** A passage of the answer, each match between MATCH_START and MATCH_END. */
  snippet: string;
  /** A video answer: the second its match starts at, when the transcript has times; else null. */
  startSeconds: number | null;
};

export type SearchPage = { items: SearchHit[]; more: boolean };

export const MATCH_START = '\u0002';
export const MATCH_END = '\u0003';
/** Hits per page, as the server sends them. */
export const SEARCH_PAGE_SIZE = 20;

export function searchAnswers(companyId: string, q: string, offset: number, signal?: AbortSignal): Promise<SearchPage> {
  return pb.send<SearchPage>(`/api/screenroom/companies/${encodeURIComponent(companyId)}/search`, {
    method: 'GET',
    query: { q, offset: String(offset) },
    signal,
    // each search is its own request: typing a new one must not cancel a page being read
    requestKey: null,
  });
}

export const searchQueries = {
  all: () => ['search'] as const,
  results: (companyId: string, q: string) =>
    infiniteQueryOptions({
      queryKey: [...searchQueries.all(), companyId, q] as const,
      queryFn: ({ pageParam, signal }) => searchAnswers(companyId, q, pageParam, signal),
      initialPageParam: 0,
      getNextPageParam: (last, pages) => (last.more ? pages.length * SEARCH_PAGE_SIZE : undefined),
      enabled: q.trim() !== '',
    }),
};

/** A snippet as text pieces, each marked or not. */
export function snippetParts(snippet: string): { text: string; match: boolean }[] {
  const parts: { text: string; match: boolean }[] = [];
  for (const [index, piece] of snippet.split(MATCH_START).entries()) {
    if (index === 0) {
      if (piece) parts.push({ text: piece.replaceAll(MATCH_END, ''), match: false });
      continue;
    }
    const end = piece.indexOf(MATCH_END);
    const matched = end === -1 ? piece : piece.slice(0, end);
    const rest = end === -1 ? '' : piece.slice(end + 1).replaceAll(MATCH_END, '');
    if (matched) parts.push({ text: matched, match: true });
    if (rest) parts.push({ text: rest, match: false });
  }
  return parts;
}
