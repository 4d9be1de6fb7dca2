import PocketBase, { LocalAuthStore, type SendOptions } from 'pocketbase';

import { env } from '@/config/env';

import type { TypedPocketBase } from './pocketbase-types';

/** The SDK's default key, stated so the stored session's location is part of the contract (spec §9). */
const AUTH_STORAGE_KEY = 'pocketbase_auth';

/**
 * The candidate's key: the last part of the interview link (`/candidates/{key}`), a random secret that is not the
 * candidate's record id. The interview screens call it `candidateId` after the route's parameter. Server rules read
 * it as `@request.headers.x_candidate_key`.
 */
export const CANDIDATE_KEY_HEADER = 'X-Candidate-Key';

const LANGUAGE = 'en-US';

export const pb = new PocketBase(env.apiUrl, new LocalAuthStore(AUTH_STORAGE_KEY), LANGUAGE) as TypedPocketBase;

// Auto-cancellation aborts the earlier of two requests to the same path, which breaks React Query's
// parallel and background fetches; queries pass their own `signal` instead.
pb.autoCancellation(false);

pb.beforeSend = (url, options) => {
  if (!hasHeader(options.headers, 'Accept-Language')) {
    options.headers = { ...options.headers, 'Accept-Language': LANGUAGE };
  }
  return { url, options };
};

function hasHeader(headers: SendOptions['headers'], name: string): boolean {
  const wanted = name.toLowerCase();
  return Object.keys(headers ?? {}).some((key) => key.toLowerCase() === wanted);
}

/**
 * Request options for a candidate's anonymous calls: the candidate's key travels in a header the server rules check.
 *
 * @example pb.collection('candidates').getOne(candidateId, candidateOptions(candidateId, { signal }))
 */
export function candidateOptions(candidateId: string, options: SendOptions = {}): SendOptions {
  return { ...options, headers: { ...options.headers, [CANDIDATE_KEY_HEADER]: candidateId } };
}
