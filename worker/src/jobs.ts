// What the worker takes on, and what it does after a failure: pure decisions, unit-tested in
// tests/worker/jobs.test.ts. The server has the last word on a claim (server/internal/takes/worker_claims.go); these
// keep the worker from asking for answers it cannot get.

export interface VideoAnswerState {
  id: string;
  transcriptStatus?: string;
  transcriptAttempts?: number;
  transcriptClaimedBy?: string;
  transcriptClaimedAt?: string;
  created?: string;
}

export interface JobPolicy {
  /** How long a claim protects an answer; past it the claim counts as abandoned (its worker died). */
  leaseMs: number;
  /** Claims per answer, the first try included, before it is marked failed. */
  maxAttempts: number;
}

export const DEFAULT_POLICY: JobPolicy = { leaseMs: 10 * 60_000, maxAttempts: 3 };

/** PocketBase dates read "2024-01-02 03:04:05.678Z"; empty means never. */
export function parsePbDate(value: string | undefined): number | null {
  if (!value) return null;
  const ms = Date.parse(value.replace(" ", "T"));
  return Number.isNaN(ms) ? null : ms;
}

/** A worker's claim as the server stores it: its stable name and the id of its current process run. */
export interface ClaimOwner {
  worker: string;
  run: string;
}

/**
 * Whether someone else holds a live claim on the answer. A claim under this worker's name from another run is
 * from its previous process, which died mid-job, so it does not count.
 */
export function isHeld(answer: VideoAnswerState, now: number, policy: JobPolicy, self?: ClaimOwner): boolean {
  const holder = answer.transcriptClaimedBy;
  if (!holder) return false;
  if (isInterrupted(answer, self)) return false;
  const at = parsePbDate(answer.transcriptClaimedAt);
  return at !== null && now - at < policy.leaseMs;
}

/**
 * Whether the answer is worth asking the server for: pending and not held by a live claim. An answer that used
 * up its attempts is still asked for once more, so the server marks it failed (e.g. its worker kept crashing).
 */
export function isClaimable(answer: VideoAnswerState, now: number, policy: JobPolicy, self?: ClaimOwner): boolean {
  return answer.transcriptStatus === "pending" && !isHeld(answer, now, policy, self);
}

/** Whether the answer was claimed by this worker's previous process, which died mid-job. */
export function isInterrupted(answer: VideoAnswerState, self?: ClaimOwner): boolean {
  const holder = answer.transcriptClaimedBy;
  return !!self && !!holder && holder.startsWith(`${self.worker}#`) && holder !== `${self.worker}#${self.run}`;
}

/**
 * The claimable answers of a scan: first the jobs this worker's previous process was in the middle of (a
 * restart resumes them at once, not behind a backlog of newer answers), then oldest first (candidates who
 * answered first get their transcript first).
 */
export function selectJobs<T extends VideoAnswerState>(answers: T[], now: number, policy: JobPolicy, self?: ClaimOwner): T[] {
  return answers
    .filter((a) => isClaimable(a, now, policy, self))
    .sort(
      (a, b) =>
        Number(isInterrupted(b, self)) - Number(isInterrupted(a, self)) ||
        (parsePbDate(a.created) ?? 0) - (parsePbDate(b.created) ?? 0) ||
        a.id.localeCompare(b.id),
    );
}

export type FailureOutcome = { status: "failed" } | { status: "pending"; retryInMs: number };

/** After attempt number `attempts` (1-based, as counted by the claim) failed: give up or retry later. */
export function afterFailure(attempts: number, policy: JobPolicy, baseDelayMs = 5_000): FailureOutcome {
  if (attempts >= policy.maxAttempts) return { status: "failed" };
  return { status: "pending", retryInMs: Math.min(baseDelayMs * 2 ** Math.max(0, attempts - 1), 5 * 60_000) };
}

/**
 * What a PocketBase status says of the server rather than of the answer: "unreachable" for no answer at all (0: the
 * connection was refused, reset or cut) and for what a proxy says of a server behind it that is down (502, 504, a 503
 * without Retry-After); "refused" for a server that answers but cannot take the request now (507: its storage is
 * full; a 503 with Retry-After; any other 5xx). Neither is a failed attempt of the answer. Null for the rest (a 4xx
 * is about the request).
 */
export type ServerTrouble = "unreachable" | "refused";

export function serverTrouble(status: number, hasRetryAfter = false): ServerTrouble | null {
  if (status === 0 || status === 502 || status === 504 || (status === 503 && !hasRetryAfter)) return "unreachable";
  if (status >= 500 && status <= 599) return "refused";
  return null;
}

/** The wait before health check number `tries` (0-based) while the server is unreachable: 0.5 s doubling to 5 s. */
export function reconnectDelayMs(tries: number): number {
  return Math.min(500 * 2 ** Math.max(0, tries), 5_000);
}

/**
 * When to try again after the server refused a job's request for the `refusals`-th time in a row (0-based): what
 * its Retry-After asks (at most 10 minutes), else 5 s doubling to a minute, so a full disk is not hammered with a
 * recording of up to 150 MB every few seconds.
 */
export function refusedRetryMs(refusals: number, retryAfterSeconds?: number): number {
  if (retryAfterSeconds !== undefined && retryAfterSeconds >= 0) return Math.min(retryAfterSeconds * 1000, 10 * 60_000);
  return Math.min(5_000 * 2 ** Math.max(0, refusals), 60_000);
}

/** An HTTP Retry-After (seconds, or a date) in seconds from `now`; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now: number): number | undefined {
  if (!value) return undefined;
  if (/^\s*\d+\s*$/.test(value)) return Number(value);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

/**
 * The worker's own queue: each answer at most once in it, never while it is being processed, and not before
 * its retry time. It is what makes a burst of realtime events plus a scan for the same answer one job.
 */
export class JobQueue {
  private readonly queued: string[] = [];
  private readonly running = new Set<string>();
  private readonly notBefore = new Map<string, number>();
  /** When each queued answer was added: the metrics endpoint's age of the oldest job. */
  private readonly queuedAt = new Map<string, number>();

  /** Adds the answer unless it is queued, running or waiting for its retry; returns whether it was added. */
  offer(id: string, now: number, { first = false }: { first?: boolean } = {}): boolean {
    if (this.running.has(id)) return false;
    const at = this.queued.indexOf(id);
    if (at !== -1) {
      // already queued: an interrupted job still moves to the front
      if (!first || at === 0) return false;
      this.queued.splice(at, 1);
      this.queued.unshift(id);
      return false;
    }
    const wait = this.notBefore.get(id);
    if (wait !== undefined && now < wait) return false;
    this.notBefore.delete(id);
    if (first) this.queued.unshift(id);
    else this.queued.push(id);
    this.queuedAt.set(id, now);
    return true;
  }

  /** The next answer to process, now marked running; undefined when the queue is empty. */
  take(): string | undefined {
    const id = this.queued.shift();
    if (id !== undefined) {
      this.running.add(id);
      this.queuedAt.delete(id);
    }
    return id;
  }

  done(id: string, retryAt?: number): void {
    this.running.delete(id);
    if (retryAt !== undefined) this.notBefore.set(id, retryAt);
  }

  isRunning(id: string): boolean {
    return this.running.has(id);
  }

  get size(): number {
    return this.queued.length;
  }

  get runningCount(): number {
    return this.running.size;
  }

  /** When the answer queued longest was added; undefined when none is queued. */
  oldestQueuedAt(): number | undefined {
    let oldest: number | undefined;
    for (const at of this.queuedAt.values()) if (oldest === undefined || at < oldest) oldest = at;
    return oldest;
  }
}
