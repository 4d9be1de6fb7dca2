import type { AnswerStore, DraftTake, KeptAnswer, PendingAnswer } from './answer-store';

/**
 * Uploads the candidate's stored answers one at a time, retrying with backoff until the server confirms each one,
 * and only then removes the local copy. Shared code: the transport is injected.
 *
 * A finished video take is stored as a draft while the candidate watches it (saveDraft), so submitting it (enqueue)
 * writes only a small record before the upload starts. Drafts are never uploaded.
 */

export type UploadStatus = 'uploading' | 'waiting' | 'failed' | 'done';

export type UploadState = {
  readonly id: string;
  readonly candidateId: string;
  readonly questionId: string;
  readonly kind: PendingAnswer['kind'];
  readonly status: UploadStatus;
  /** 0..1 of the request body sent. */
  readonly progress: number;
  /** Failed attempts so far. */
  readonly attempts: number;
  /** When status is 'waiting' after a failure: the time of the next attempt (ms since the epoch). */
  readonly retryAt?: number;
  /**
   * The server could not store the answer (its storage is full or it is unavailable: 507, 503): the answer waits on
   * this device and goes again by itself. Stays set through the next attempt, until one succeeds or fails otherwise.
   */
  readonly storageFull?: boolean;
  readonly error?: string;
};

export class UploadError extends Error {
  constructor(
    message: string,
    /** 0 when no response arrived (offline, dropped, aborted). */
    readonly status: number,
    readonly response: unknown = null,
    /** How long the server asked to wait before the next try (its Retry-After), when it said. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'UploadError';
  }
}

/**
 * `Staged`: what travels with an answer in this page only, never stored (a video take already on its way to the
 * server in parts); an answer resumed after a reload has none.
 */
export type UploadTransport<Staged = never> = {
  /**
   * Creates the answer and its kind record in one request; rejects with an UploadError. Resolves with the server's
   * receipt for the answer (a string), kept with the device's copy; anything else when there is none.
   */
  send: (answer: PendingAnswer, onProgress: (fraction: number) => void, staged?: Staged) => Promise<unknown>;
  /** Whether the server already holds this answer (a retry after a lost response). */
  exists: (answer: PendingAnswer) => Promise<boolean>;
};

export const MAX_RETRY_DELAY_MS = 30_000;

/** The longest wait a server's Retry-After may impose: a longer one would leave the candidate waiting for nothing. */
export const MAX_RETRY_AFTER_MS = 60_000;

/**
 * A draft never submitted is the candidate's recording (decisions.md "Staged takes"): it is offered again when the
 * question is opened, and dropped on resume only once it is as old as the server keeps a take (30 days).
 */
export const STALE_DRAFT_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * How long this device keeps an answer after the server confirmed it: the only other copy of what a restore of the
 * server's database from its replica loses (its last second or so), for as long as the server's receipt lets it be
 * sent again (server/internal/interview/kept_answers.go, 25 hours, an hour for a clock that runs ahead here).
 */
export const KEEP_CONFIRMED_MS = 24 * 60 * 60 * 1000;

/** A write refused because the device's storage is full (or the browser's quota for the site is used up). */
export function isQuotaError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'QuotaExceededError';
}

/**
 * Runs a write to the device's storage; when storage is short, drops the oldest kept answer (confirmed by the
 * server: a copy, never an answer still to send) and tries again, until it fits or nothing kept is left.
 */
export async function withRoom<T>(store: Pick<AnswerStore, 'removeOldestKept'>, write: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      return await write();
    } catch (error) {
      if (!isQuotaError(error) || !(await store.removeOldestKept().catch(() => false))) throw error;
    }
  }
}

/** 1 s, 2 s, 4 s ... capped at 30 s. */
export function retryDelay(failedAttempts: number): number {
  return Math.min(1000 * 2 ** Math.max(0, failedAttempts - 1), MAX_RETRY_DELAY_MS);
}

/**
 * The wait before the next try after `failedAttempts` failures, the last of them `error`: the backoff, or longer when
 * the server asked for it (Retry-After, at most MAX_RETRY_AFTER_MS).
 */
export function retryDelayAfter(error: unknown, failedAttempts: number): number {
  const asked = error instanceof UploadError ? (error.retryAfterMs ?? 0) : 0;
  return Math.max(retryDelay(failedAttempts), Math.min(asked, MAX_RETRY_AFTER_MS));
}

/** Transient: no answer at all, a server error, a timeout or a rate limit. Anything else will fail again. */
export function isTransient(error: unknown): boolean {
  if (!(error instanceof UploadError)) return true;
  return error.status === 0 || error.status >= 500 || error.status === 408 || error.status === 429;
}

/**
 * The server could not store what it was sent (issue 26: its disk is full, 507 Insufficient Storage, or it is
 * unavailable, 503): transient, and what the candidate is told is that the answer waits on this device.
 */
export function isStorageRefusal(error: unknown): boolean {
  return error instanceof UploadError && (error.status === 507 || error.status === 503);
}

type Options<Staged> = {
  store: AnswerStore;
  transport: UploadTransport<Staged>;
  /** Called once per answer after the server confirmed it and the local copy is gone. */
  onConfirmed?: (answer: PendingAnswer) => void;
  now?: () => number;
};

/** `stored`: the answer's record on this device, while it is still being written (confirming waits for it). */
type Entry<Staged> = { readonly answer: PendingAnswer; readonly staged?: Staged; readonly stored?: Promise<void> };

export class UploadQueue<Staged = never> {
  private states: readonly UploadState[] = [];
  private readonly entries = new Map<string, Entry<Staged>>();
  private readonly listeners = new Set<() => void>();
  private running = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly now: () => number;

  constructor(private readonly options: Options<Staged>) {
    // looked up at each call, not kept: the page's queue outlives whoever replaces the clock (a test's fake timers)
    this.now = options.now ?? (() => Date.now());
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** An immutable snapshot, replaced on every change (for useSyncExternalStore). */
  getSnapshot = (): readonly UploadState[] => this.states;

  /** Whether any answer still waits for the server's confirmation. */
  hasPending(): boolean {
    return this.states.some((state) => state.status !== 'done');
  }

  /**
   * Keeps a finished take on this device while the candidate decides. Resolves once it is stored, or known to be
   * unstorable (the take then stays in memory, and submitting it tries to store it again).
   */
  async saveDraft(take: DraftTake): Promise<void> {
    try {
      await withRoom(this.options.store, () => this.options.store.putDraft(take));
    } catch (error) {
      console.warn('The take could not be stored on this device', error);
    }
  }

  /** Drops a draft that will not be submitted (replaced by a new take). */
  async discardDraft(id: string): Promise<void> {
    if (this.entries.has(id)) return;
    try {
      await this.options.store.removeDraft(id);
    } catch (error) {
      console.warn('The take could not be removed from this device', error);
    }
  }

  /**
   * Records the answer as submitted on this device (a video's take is normally stored already as a draft), and
   * uploads it (with `staged`, what the transport already sent of it). An answer the server holds nothing of is
   * stored first; a staged take starts at once (issue 20 point 4: the server holds its parts, the device its
   * chunks, and writing a long take's copy on the device took longer than sending what is left), and its record is
   * removed only once written. Resolves once it is stored (or known to be unstorable).
   */
  async enqueue(answer: PendingAnswer, staged?: Staged): Promise<void> {
    const stored = withRoom(this.options.store, () => this.options.store.put(answer)).catch((error: unknown) => {
      // No IndexedDB (a private window, a full disk): still upload from memory rather than refuse the answer.
      console.warn('The answer could not be stored on this device', error);
    });
    if (staged === undefined) await stored;
    this.track(answer, staged, stored);
    this.kick();
    await stored;
  }

  /**
   * Picks up the answers an earlier visit submitted (a reload, a crash) and uploads them. Drafts are not answers: they
   * stay until they are old enough to be leftovers, then they are dropped.
   */
  async resume(): Promise<void> {
    const stored = await this.options.store.list();
    for (const answer of stored) if (!this.entries.has(answer.id)) this.track(answer);
    this.kick();
    try {
      await this.options.store.removeStaleDrafts(this.now() - STALE_DRAFT_MS);
      await this.options.store.removeKeptBefore(this.now() - KEEP_CONFIRMED_MS);
    } catch (error) {
      console.warn('Old takes could not be cleaned up on this device', error);
    }
  }

  /**
   * The candidate's answers this device kept after the server confirmed them, and not on their way now; [] when
   * storage fails.
   */
  async keptAnswers(candidateId: string): Promise<KeptAnswer[]> {
    try {
      const kept = await this.options.store.listKept(candidateId);
      return kept.filter((answer) => !this.entries.has(answer.id) && answer.confirmedAt >= this.now() - KEEP_CONFIRMED_MS);
    } catch (error) {
      console.warn('The answers kept on this device could not be read', error);
      return [];
    }
  }

  /**
   * Sends kept answers again (the server lost them: a restore), each with its receipt. One the server refuses goes
   * back to being kept, quietly: the interview closed meanwhile, and nothing is wrong on the candidate's side.
   */
  async resend(answers: readonly KeptAnswer[]): Promise<void> {
    for (const kept of answers) {
      if (this.entries.has(kept.id)) continue;
      const { confirmedAt, receipt, ...answer } = kept;
      await this.enqueue({ ...answer, ...(receipt ? { receipt } : {}), resentFrom: confirmedAt });
    }
  }

  /** The newest unsubmitted draft of a question on this device (undefined when none, or when storage fails). */
  async findDraft(candidateId: string, questionId: string): Promise<DraftTake | undefined> {
    try {
      return await this.options.store.findDraft(candidateId, questionId);
    } catch (error) {
      console.warn('The takes on this device could not be read', error);
      return undefined;
    }
  }

  /**
   * Stops sending one candidate's answers and removes every copy of them on this device (they withdrew: the server
   * deleted their answers, and what is here is theirs to have gone too). An upload under way ends on its own; its
   * answer is not sent again.
   */
  async forgetCandidate(candidateId: string): Promise<void> {
    for (const [id, entry] of this.entries) if (entry.answer.candidateId === candidateId) this.entries.delete(id);
    const before = this.states.length;
    this.states = this.states.filter((state) => state.candidateId !== candidateId);
    if (this.states.length !== before) this.emit();
    try {
      await this.options.store.removeCandidate(candidateId);
    } catch (error) {
      console.warn('The answers on this device could not be removed', error);
    }
  }

  /** Retries failed and waiting answers now (the connection came back, or the candidate asked). */
  retryNow(): void {
    let changed = false;
    this.states = this.states.map((state) => {
      if (state.status !== 'failed' && state.status !== 'waiting') return state;
      changed = true;
      return { ...state, status: 'waiting', retryAt: undefined, error: undefined };
    });
    if (changed) this.emit();
    this.kick();
  }

  private track(answer: PendingAnswer, staged?: Staged, stored?: Promise<void>) {
    this.entries.set(answer.id, { answer, staged, stored });
    this.states = [
      ...this.states.filter((state) => state.id !== answer.id),
      {
        id: answer.id,
        candidateId: answer.candidateId,
        questionId: answer.questionId,
        kind: answer.kind,
        status: 'waiting',
        progress: 0,
        attempts: 0,
      },
    ];
    this.emit();
  }

  private update(id: string, patch: Partial<UploadState>) {
    this.states = this.states.map((state) => (state.id === id ? { ...state, ...patch } : state));
    this.emit();
  }

  private emit() {
    this.listeners.forEach((listener) => listener());
  }

  private next(): UploadState | undefined {
    const now = this.now();
    return this.states.find((state) => state.status === 'waiting' && (state.retryAt ?? 0) <= now);
  }

  private kick() {
    if (this.running) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    const state = this.next();
    if (!state) {
      this.scheduleWake();
      return;
    }
    this.running = true;
    void this.process(state.id).finally(() => {
      this.running = false;
      this.kick();
    });
  }

  private scheduleWake() {
    const times = this.states.flatMap((s) => (s.status === 'waiting' && s.retryAt ? [s.retryAt] : []));
    if (!times.length) return;
    const delay = Math.max(0, Math.min(...times) - this.now());
    this.timer = setTimeout(() => this.kick(), delay);
  }

  private async process(id: string) {
    const entry = this.entries.get(id);
    if (!entry) return;
    const { answer, staged } = entry;
    this.update(id, { status: 'uploading', progress: 0, retryAt: undefined, error: undefined });
    try {
      const receipt = await this.options.transport.send(answer, (progress) => this.update(id, { progress }), staged);
      await this.confirm(answer, typeof receipt === 'string' ? receipt : '');
    } catch (error) {
      await this.handleFailure(answer, error);
    }
  }

  private async handleFailure(answer: PendingAnswer, error: unknown) {
    if (!isTransient(error)) {
      // Refused: most often because an earlier attempt did arrive and only its response was lost.
      let exists: boolean;
      try {
        exists = await this.options.transport.exists(answer);
      } catch (checkError) {
        this.scheduleRetry(answer, checkError);
        return;
      }
      if (exists) {
        await this.confirm(answer, answer.receipt ?? '');
        return;
      }
      if (answer.resentFrom !== undefined) {
        await this.keepQuietly(answer, answer.resentFrom);
        return;
      }
      const state = this.states.find((s) => s.id === answer.id);
      this.update(answer.id, {
        status: 'failed',
        progress: 0,
        attempts: (state?.attempts ?? 0) + 1,
        storageFull: false,
        error: error instanceof Error ? error.message : String(error),
      });
      return;
    }
    this.scheduleRetry(answer, error);
  }

  private scheduleRetry(answer: PendingAnswer, error: unknown) {
    const attempts = (this.states.find((s) => s.id === answer.id)?.attempts ?? 0) + 1;
    this.update(answer.id, {
      status: 'waiting',
      progress: 0,
      attempts,
      retryAt: this.now() + retryDelayAfter(error, attempts),
      storageFull: isStorageRefusal(error),
      error: error instanceof Error ? error.message : String(error),
    });
  }

  /** A resend the server refused: kept as it was, no longer on its way, and nothing said. */
  private async keepQuietly(answer: PendingAnswer, confirmedAt: number) {
    await this.entries.get(answer.id)?.stored;
    try {
      await this.options.store.keep(answer, confirmedAt, answer.receipt ?? '');
    } catch (error) {
      console.warn('The answer could not be kept on this device', error);
    }
    this.entries.delete(answer.id);
    this.states = this.states.filter((state) => state.id !== answer.id);
    this.emit();
  }

  private async confirm(answer: PendingAnswer, receipt: string) {
    await this.entries.get(answer.id)?.stored;
    try {
      // kept for a day as the copy a restore of the server may need (it leaves the answers to upload either way)
      await this.options.store.keep(answer, this.now(), receipt);
    } catch (error) {
      console.warn('The confirmed answer could not be kept on this device', error);
      await this.options.store.remove(answer.id);
    }
    this.entries.delete(answer.id);
    this.update(answer.id, { status: 'done', progress: 1, retryAt: undefined, storageFull: false, error: undefined });
    this.options.onConfirmed?.(answer);
  }
}
