import { ClientResponseError } from 'pocketbase';

import type { Interview } from './interview-get';

/** What index.html's inline script left (scripts/vite-interview-prefetch.ts): the interview read it started. */
type EarlyInterview = { key: string; response: Promise<Response | null> };

const EARLY_INTERVIEW = '__screenroomInterview';

/**
 * The interview read index.html started before the app's JS arrived (production build only), for this candidate,
 * once: a later read asks the server again. Answers as `pb.send` would: the interview, or a ClientResponseError with
 * the server's status and body. Null when there is none to take or it failed on the network (the caller then sends
 * its own request, as before).
 */
export function takeEarlyInterview(candidateId: string): Promise<Interview | null> | null {
  const scope = window as unknown as Record<string, EarlyInterview | undefined>;
  const early = scope[EARLY_INTERVIEW];
  if (!early) return null;
  delete scope[EARLY_INTERVIEW];
  if (early.key !== candidateId) return null;
  return early.response.then(async (response) => {
    if (!response) return null;
    let data: unknown = {};
    try {
      data = await response.json();
    } catch {
      return null;
    }
    if (response.status >= 400) throw new ClientResponseError({ url: response.url, status: response.status, data });
    return data as Interview;
  });
}
