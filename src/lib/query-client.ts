import { QueryClient } from '@tanstack/react-query';
import { ClientResponseError } from 'pocketbase';

const MAX_RETRIES = 3;
const MAX_RETRY_DELAY_MS = 30_000;
const GC_TIME_MS = 5 * 60 * 1000;

/**
 * How long a list a route loader prefetched (src/app/prefetch.ts) counts as fresh: the screen mounting right after
 * uses it instead of fetching it a second time. Changes made in this tab invalidate it at once anyway.
 */
export const PREFETCHED_FRESH_MS = 5_000;

/**
 * Retries transient failures only. A 4xx answer (404, 403, a failed validation...) is the same on every attempt, so
 * retrying it only delays the error; timeouts and rate limits are the exceptions.
 */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ClientResponseError && isPermanentClientError(error.status)) return false;
  return failureCount < MAX_RETRIES;
}

function isPermanentClientError(status: number): boolean {
  return status >= 400 && status < 500 && status !== 408 && status !== 429;
}

export function retryDelay(attemptIndex: number): number {
  return Math.min(1000 * 2 ** attemptIndex, MAX_RETRY_DELAY_MS);
}

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: shouldRetry,
      retryDelay,
      gcTime: GC_TIME_MS,
    },
  },
});
