/**
 * The candidate's answers on this device, kept in IndexedDB until the server has confirmed them, so a reload, a crash
 * or a dropped connection never loses an answer (decisions.md "No answer is ever lost").
 *
 * Two object stores:
 * - `takes`: a finished video take, keyed by the id its answer will have. It is written when the take is finished,
 *   while the candidate watches it (a draft), so 'Submit answer' does not wait for a large write.
 * - `pending-answers`: the submitted answers, small records (a video answer's file is its take). Only these are
 *   uploaded; a draft never is. Records written by version 1 of this store carry their file inline and still upload.
 * - `chunks`: the pieces of a take still being recorded, as the recorder hands them over, so a browser that dies
 *   mid-recording leaves what was said on this device too (issue 22). They go once the take is a draft.
 * - `kept`: the answers the server confirmed, kept for a day with the receipt the server gave (a video's file stays
 *   in `takes`): if the server's disk is lost, its restore misses about the last second, and this device holds the
 *   only other copy (docs/decisions/device-keeps-confirmed-answers.md).
 */

type PendingAnswerBase = {
  /** The answer record's id, made by the client so a retry can never create a second answer. */
  id: string;
  candidateId: string;
  questionId: string;
  /** ms since the epoch; entries upload in the order they were taken. */
  createdAt: number;
  /** The server's receipt from when it first stored the answer: sent with the answer when it goes again. */
  receipt?: string;
  /** Set when the answer goes again after the server lost it: when it was first confirmed (ms since the epoch). */
  resentFrom?: number;
};

export type PendingVideoAnswer = PendingAnswerBase & { kind: 'video'; file: Blob; fileName: string };
export type PendingTextAnswer = PendingAnswerBase & { kind: 'text'; content: string };
export type PendingAnswer = PendingVideoAnswer | PendingTextAnswer;

/**
 * A finished video take, not (yet) submitted. Its id is the id its answer gets if it is submitted. `durationMs`: its
 * length as recorded, when known.
 */
export type DraftTake = PendingAnswerBase & { file: Blob; fileName: string; durationMs?: number };

/** An answer the server confirmed, kept on this device for a day. */
export type KeptAnswer = PendingAnswer & {
  /** When the server confirmed it (ms since the epoch, this device's clock). */
  confirmedAt: number;
  /** The server's receipt ('' when the confirmation came without one: the answer was found stored after a retry). */
  receipt: string;
};

/** A piece of a take being recorded, at its byte offset; `ms` the length recorded by then, `last` if it ended the take. */
export type RecordedChunk = {
  takeId: string;
  candidateId: string;
  questionId: string;
  offset: number;
  data: Blob;
  ms: number;
  last: boolean;
  /** ms since the epoch */
  createdAt: number;
};

export interface AnswerStore {
  /** Keeps a finished take that is not submitted yet. */
  putDraft(take: DraftTake): Promise<void>;
  /** Drops a draft (replaced by a new take, or its question was left). A submitted answer's take is kept. */
  removeDraft(id: string): Promise<void>;
  /**
   * Records the answer as submitted. A video answer's file is the draft of the same id, written again from the
   * answer if it is gone (it was never stored, or another tab cleaned it up).
   */
  put(answer: PendingAnswer): Promise<void>;
  /** The submitted answers, oldest first, with their files. Drafts are not listed. */
  list(): Promise<PendingAnswer[]>;
  /** Forgets an answer and its take, wherever they are. */
  remove(id: string): Promise<void>;
  /**
   * The server confirmed the answer: it leaves the answers to upload and is kept, its take with it, with the time and
   * the server's receipt. Putting it again (a resend) makes it an answer to upload again.
   */
  keep(answer: PendingAnswer, confirmedAt: number, receipt: string): Promise<void>;
  /** The candidate's kept answers, oldest confirmation first (then in the order they were taken), with their files. */
  listKept(candidateId: string): Promise<KeptAnswer[]>;
  /** Forgets the kept answers confirmed before `before` (ms since the epoch), and their takes. */
  removeKeptBefore(before: number): Promise<void>;
  /** Forgets the kept answer confirmed first, of any candidate: false when none is kept. */
  removeOldestKept(): Promise<boolean>;
  /** Drops the drafts taken before `before` (ms since the epoch) that no submitted answer refers to. */
  removeStaleDrafts(before: number): Promise<void>;
  /** The newest draft of the candidate's question that no submitted answer refers to (a take kept after a crash). */
  findDraft(candidateId: string, questionId: string): Promise<DraftTake | undefined>;
  putChunk(chunk: RecordedChunk): Promise<void>;
  /** The chunks of the newest take of the candidate's question that has any, by offset ([] when none). */
  findChunks(candidateId: string, questionId: string): Promise<RecordedChunk[]>;
  removeChunks(takeId: string): Promise<void>;
  /** Forgets everything of one candidate: answers, kept answers, drafts and chunks (they withdrew, or were erased). */
  removeCandidate(candidateId: string): Promise<void>;
}

const DB_NAME = 'screenroom';
/** 1: `pending-answers` with every file inline. 2: adds `takes`. 3: adds `chunks`. 4: adds `kept`. */
const DB_VERSION = 4;
const PENDING = 'pending-answers';
const TAKES = 'takes';
const CHUNKS = 'chunks';
const KEPT = 'kept';

/** What `kept` holds: the answer without its file (a video's is its take in `takes`). */
type StoredKept =
  | (PendingTextAnswer & { confirmedAt: number; receipt: string })
  | (PendingAnswerBase & { kind: 'video'; fileName: string; confirmedAt: number; receipt: string });

/** What `pending-answers` holds: a version-1 video answer still has its `file`, a version-2 one has it in `takes`. */
type StoredPending =
  | PendingTextAnswer
  | (PendingAnswerBase & { kind: 'video'; fileName: string; file?: Blob });

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'));
  });
}

function transactionDone(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error ?? new Error('IndexedDB transaction failed'));
    tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'));
  });
}

export function createIndexedDbAnswerStore(name = DB_NAME): AnswerStore {
  let opened: Promise<IDBDatabase> | undefined;
  const db = () => {
    opened ??= new Promise<IDBDatabase>((resolve, reject) => {
      const req = indexedDB.open(name, DB_VERSION);
      // Version 1's answers stay where they are (upgrades only add): they are still uploaded.
      req.onupgradeneeded = () => {
        const names = req.result.objectStoreNames;
        if (!names.contains(PENDING)) req.result.createObjectStore(PENDING, { keyPath: 'id' });
        if (!names.contains(TAKES)) req.result.createObjectStore(TAKES, { keyPath: 'id' });
        if (!names.contains(CHUNKS)) req.result.createObjectStore(CHUNKS, { keyPath: ['takeId', 'offset'] });
        if (!names.contains(KEPT)) req.result.createObjectStore(KEPT, { keyPath: 'id' });
      };
      // Another tab still holds the old version open: fail (the queue then uploads from memory) rather than hang.
      req.onblocked = () => reject(new Error('IndexedDB is held at an older version by another tab'));
      req.onsuccess = () => {
        const database = req.result;
        // A newer version opened in another tab: let it upgrade, and open again next time.
        database.onversionchange = () => {
          database.close();
          opened = undefined;
        };
        resolve(database);
      };
      req.onerror = () => reject(req.error ?? new Error('IndexedDB is not available'));
    });
    // A failed open may succeed later (private mode switched off, storage freed): do not cache the failure.
    opened.catch(() => {
      opened = undefined;
    });
    return opened;
  };

  return {
    async putDraft(take) {
      const tx = (await db()).transaction(TAKES, 'readwrite');
      tx.objectStore(TAKES).put(take);
      await transactionDone(tx);
    },
    async removeDraft(id) {
      const tx = (await db()).transaction([PENDING, TAKES, KEPT], 'readwrite');
      const submitted = tx.objectStore(PENDING).count(id);
      const kept = tx.objectStore(KEPT).count(id);
      kept.onsuccess = () => {
        if (submitted.result === 0 && kept.result === 0) tx.objectStore(TAKES).delete(id);
      };
      await transactionDone(tx);
    },
    async put(answer) {
      const tx = (await db()).transaction([PENDING, TAKES, KEPT], 'readwrite');
      tx.objectStore(KEPT).delete(answer.id);
      if (answer.kind === 'video') {
        const { file, ...marker } = answer;
        const take = tx.objectStore(TAKES).count(answer.id);
        take.onsuccess = () => {
          if (take.result === 0) {
            const { id, candidateId, questionId, createdAt, fileName } = answer;
            tx.objectStore(TAKES).put({ id, candidateId, questionId, createdAt, fileName, file } satisfies DraftTake);
          }
        };
        tx.objectStore(PENDING).put(marker satisfies StoredPending);
      } else {
        tx.objectStore(PENDING).put(answer satisfies StoredPending);
      }
      await transactionDone(tx);
    },
    async list() {
      const tx = (await db()).transaction([PENDING, TAKES], 'readonly');
      const stored = (await request(tx.objectStore(PENDING).getAll())) as StoredPending[];
      const answers = await Promise.all(
        stored.map(async (entry): Promise<PendingAnswer | null> => {
          if (entry.kind === 'text') return entry;
          if (entry.file) return { ...entry, file: entry.file };
          const take = (await request(tx.objectStore(TAKES).get(entry.id))) as DraftTake | undefined;
          // put() stores the take with its answer, so a missing one means the storage was cleared by hand.
          return take ? { ...entry, file: take.file } : null;
        }),
      );
      return answers.filter((answer) => answer !== null).sort((a, b) => a.createdAt - b.createdAt);
    },
    async remove(id) {
      const tx = (await db()).transaction([PENDING, TAKES, KEPT], 'readwrite');
      tx.objectStore(PENDING).delete(id);
      tx.objectStore(TAKES).delete(id);
      tx.objectStore(KEPT).delete(id);
      await transactionDone(tx);
    },
    async keep(answer, confirmedAt, receipt) {
      const tx = (await db()).transaction([PENDING, TAKES, KEPT], 'readwrite');
      tx.objectStore(PENDING).delete(answer.id);
      // what travelled with the answer as a resend is not kept: the receipt and the time are the new confirmation's
      const base = { ...answer };
      delete base.receipt;
      delete base.resentFrom;
      if (base.kind === 'video') {
        const { file, ...marker } = base;
        tx.objectStore(KEPT).put({ ...marker, confirmedAt, receipt } satisfies StoredKept);
        // the take is in `takes` since it was a draft; an answer uploaded from memory (storage failed) writes it now
        const take = tx.objectStore(TAKES).count(base.id);
        take.onsuccess = () => {
          if (take.result === 0) {
            const { id, candidateId, questionId, createdAt, fileName } = base;
            tx.objectStore(TAKES).put({ id, candidateId, questionId, createdAt, fileName, file } satisfies DraftTake);
          }
        };
      } else {
        tx.objectStore(KEPT).put({ ...base, confirmedAt, receipt } satisfies StoredKept);
      }
      await transactionDone(tx);
    },
    async listKept(candidateId) {
      const tx = (await db()).transaction([TAKES, KEPT], 'readonly');
      const kept = ((await request(tx.objectStore(KEPT).getAll())) as StoredKept[]).filter((k) => k.candidateId === candidateId);
      const found = await Promise.all(
        kept.map(async (entry): Promise<KeptAnswer | null> => {
          if (entry.kind === 'text') return entry;
          const take = (await request(tx.objectStore(TAKES).get(entry.id))) as DraftTake | undefined;
          return take ? { ...entry, file: take.file } : null;
        }),
      );
      return found.filter((answer) => answer !== null).sort((a, b) => a.confirmedAt - b.confirmedAt || a.createdAt - b.createdAt);
    },
    async removeKeptBefore(before) {
      const tx = (await db()).transaction([TAKES, KEPT], 'readwrite');
      const kept = (await request(tx.objectStore(KEPT).getAll())) as StoredKept[];
      for (const entry of kept) {
        if (entry.confirmedAt >= before) continue;
        tx.objectStore(KEPT).delete(entry.id);
        tx.objectStore(TAKES).delete(entry.id);
      }
      await transactionDone(tx);
    },
    async removeOldestKept() {
      const tx = (await db()).transaction([TAKES, KEPT], 'readwrite');
      const kept = (await request(tx.objectStore(KEPT).getAll())) as StoredKept[];
      const oldest = kept.reduce<StoredKept | undefined>((found, k) => (!found || k.confirmedAt < found.confirmedAt ? k : found), undefined);
      if (oldest) {
        tx.objectStore(KEPT).delete(oldest.id);
        tx.objectStore(TAKES).delete(oldest.id);
      }
      await transactionDone(tx);
      return oldest !== undefined;
    },
    async removeStaleDrafts(before) {
      const tx = (await db()).transaction([PENDING, TAKES, KEPT], 'readwrite');
      const [submitted, kept, takes] = await Promise.all([
        request(tx.objectStore(PENDING).getAllKeys()),
        request(tx.objectStore(KEPT).getAllKeys()),
        // Reads each take's metadata through a cursor; the files themselves stay on disk.
        new Promise<{ id: string; createdAt: number }[]>((resolve, reject) => {
          const found: { id: string; createdAt: number }[] = [];
          const cursor = tx.objectStore(TAKES).openCursor();
          cursor.onsuccess = () => {
            const current = cursor.result;
            if (!current) return resolve(found);
            const { id, createdAt } = current.value as DraftTake;
            found.push({ id, createdAt });
            current.continue();
          };
          cursor.onerror = () => reject(cursor.error ?? new Error('IndexedDB request failed'));
        }),
      ]);
      const keep = new Set([...submitted, ...kept].map(String));
      for (const take of takes) if (!keep.has(take.id) && take.createdAt < before) tx.objectStore(TAKES).delete(take.id);
      await transactionDone(tx);
      const chunks = (await db()).transaction(CHUNKS, 'readwrite');
      const old = (await request(chunks.objectStore(CHUNKS).getAll())) as RecordedChunk[];
      for (const chunk of old) if (chunk.createdAt < before) chunks.objectStore(CHUNKS).delete([chunk.takeId, chunk.offset]);
      await transactionDone(chunks);
    },
    async findDraft(candidateId, questionId) {
      const tx = (await db()).transaction([PENDING, TAKES, KEPT], 'readonly');
      const [pending, kept] = await Promise.all([request(tx.objectStore(PENDING).getAllKeys()), request(tx.objectStore(KEPT).getAllKeys())]);
      const submitted = new Set([...pending, ...kept].map(String));
      const drafts = (await request(tx.objectStore(TAKES).getAll())) as DraftTake[];
      return drafts
        .filter((d) => d.candidateId === candidateId && d.questionId === questionId && !submitted.has(d.id))
        .sort((a, b) => b.createdAt - a.createdAt)[0];
    },
    async putChunk(chunk) {
      const tx = (await db()).transaction(CHUNKS, 'readwrite');
      tx.objectStore(CHUNKS).put(chunk);
      await transactionDone(tx);
    },
    async findChunks(candidateId, questionId) {
      const tx = (await db()).transaction(CHUNKS, 'readonly');
      const mine = ((await request(tx.objectStore(CHUNKS).getAll())) as RecordedChunk[]).filter(
        (c) => c.candidateId === candidateId && c.questionId === questionId,
      );
      const newest = mine.reduce<RecordedChunk | undefined>((found, c) => (!found || c.createdAt > found.createdAt ? c : found), undefined);
      return newest ? mine.filter((c) => c.takeId === newest.takeId).sort((a, b) => a.offset - b.offset) : [];
    },
    async removeChunks(takeId) {
      const tx = (await db()).transaction(CHUNKS, 'readwrite');
      tx.objectStore(CHUNKS).delete(IDBKeyRange.bound([takeId, 0], [takeId, Number.MAX_SAFE_INTEGER]));
      await transactionDone(tx);
    },
    async removeCandidate(candidateId) {
      const tx = (await db()).transaction([PENDING, TAKES, CHUNKS, KEPT], 'readwrite');
      for (const storeName of [PENDING, TAKES, CHUNKS, KEPT]) {
        // a cursor over each record's fields; the candidate's own are deleted where they are
        const cursor = tx.objectStore(storeName).openCursor();
        cursor.onsuccess = () => {
          const current = cursor.result;
          if (!current) return;
          if ((current.value as { candidateId?: unknown }).candidateId === candidateId) current.delete();
          current.continue();
        };
      }
      await transactionDone(tx);
    },
  };
}
