import { ClientResponseError } from 'pocketbase';

/** What index.html's inline script left (scripts/vite-early-reads.ts): the reads it started, by API path. */
type EarlyReads = Record<string, Promise<Response | null> | undefined>;

const EARLY_READS = '__screenroomEarlyReads';

/**
 * The read of `path` index.html started before the app's JS arrived (production build only), once: a later read asks
 * the server again. Answers as `pb.send` would: the body, or a ClientResponseError with the server's status and body.
 * Null when there is none to take or it failed on the network (the caller then sends its own request).
 */
export function takeEarlyRead<T>(path: string): Promise<T | null> | null {
  const reads = (window as unknown as Record<string, EarlyReads | undefined>)[EARLY_READS];
  const response = reads?.[path];
  if (!reads || !response) return null;
  delete reads[path];
  return response.then(async (answer) => {
    if (!answer) return null;
    let data: unknown = {};
    try {
      data = await answer.json();
    } catch {
      return null;
    }
    if (answer.status >= 400) throw new ClientResponseError({ url: answer.url, status: answer.status, data });
    return data as T;
  });
}
