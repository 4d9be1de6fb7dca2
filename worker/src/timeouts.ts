// A bound on every request the worker makes to PocketBase: a server that accepts the connection and never answers
// (a hung process, a proxy holding the connection, a half-open socket with no reset) ends the request within the
// timeout instead of holding the job, and the queue behind it, for ever. Pure parts, unit-tested in
// tests/worker/timeouts.test.ts; worker.ts applies them.

export interface TimeoutPolicy {
  /** The longest wait for a request's answer (WORKER_REQUEST_TIMEOUT_SECONDS). */
  requestMs: number;
  /** What a request carrying a file gets on top, per megabyte of it (WORKER_TRANSFER_SECONDS_PER_MB). */
  transferMsPerMB: number;
}

export const DEFAULT_TIMEOUTS: TimeoutPolicy = { requestMs: 30_000, transferMsPerMB: 1_000 };

const MB = 1024 * 1024;

/** A request of the worker's that got no (whole) answer in time. Its name is the platform's for a timeout. */
export class RequestTimeoutError extends Error {
  constructor(
    readonly what: string,
    readonly ms: number,
  ) {
    super(`${what}: no answer within ${formatSeconds(ms)} s`);
    this.name = "TimeoutError";
  }
}

function formatSeconds(ms: number): string {
  return String(Math.round(ms / 100) / 10);
}

/** The timeout of a request that moves a file of `bytes` (0: none): the request's own plus the file's share. */
export function transferTimeoutMs(policy: TimeoutPolicy, bytes: number): number {
  return Math.round(policy.requestMs + (Math.max(0, bytes) / MB) * policy.transferMsPerMB);
}

/** The bytes of the files in a multipart body (a FormData's Blob entries); 0 for any other body. */
export function fileBytes(body: unknown): number {
  if (typeof FormData === "undefined" || !(body instanceof FormData)) return 0;
  let bytes = 0;
  body.forEach((value) => {
    if (typeof value !== "string") bytes += value.size;
  });
  return bytes;
}

/**
 * A signal that aborts with a RequestTimeoutError after `ms`, or when `outer` (the caller's own signal) aborts. Its
 * timer does not keep the process alive.
 */
export function timeoutSignal(what: string, ms: number, outer?: AbortSignal | null): AbortSignal {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new RequestTimeoutError(what, ms)), ms);
  timer.unref?.();
  if (outer) {
    if (outer.aborted) controller.abort(outer.reason);
    else outer.addEventListener("abort", () => controller.abort(outer.reason), { once: true });
  }
  controller.signal.addEventListener("abort", () => clearTimeout(timer), { once: true });
  return controller.signal;
}

/**
 * Whether `err` is, or was caused by, a timeout (ours, or the platform's `AbortSignal.timeout`): through `cause`
 * and the PocketBase SDK's `originalError`.
 */
export function isTimeout(err: unknown): boolean {
  let e: unknown = err;
  for (let depth = 0; e && typeof e === "object" && depth < 6; depth++) {
    if ((e as { name?: unknown }).name === "TimeoutError") return true;
    const next = (e as { originalError?: unknown }).originalError ?? (e as { cause?: unknown }).cause;
    if (next === e) break;
    e = next;
  }
  return false;
}

/** The timeout's own words when `err` is one of ours (inside an SDK error or not); undefined otherwise. */
export function timeoutMessage(err: unknown): string | undefined {
  let e: unknown = err;
  for (let depth = 0; e && typeof e === "object" && depth < 6; depth++) {
    if (e instanceof RequestTimeoutError) return e.message;
    e = (e as { originalError?: unknown }).originalError ?? (e as { cause?: unknown }).cause;
  }
  return undefined;
}
