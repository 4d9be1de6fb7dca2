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
 */

type PendingAnswerBase = {
  /** The answer record's id, made by the client so a retry can never create a second answer. */
  id: string;
  candidateId: string;
  questionId: string;
  /** ms since the epoch; entries upload in the order they were taken. */
  createdAt: number;
};

export type PendingVideoAnswer = PendingAnswerBase & { kind: 'video'; file: Blob; fileName: string };
export type PendingTextAnswer = PendingAnswerBase & { kind: 'text'; content: string };
export type PendingAnswer = PendingVideoAnswer | PendingTextAnswer;

/**
 * A finished video take, not (yet) submitted. Its id is the id its answer gets if it is submitted. `durationMs`: its
 * length as recorded, when known.
 */
export type DraftTake = PendingAnswerBase & { file: Blob; fileName: string; durationMs?: number };

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
  /** Forgets a submitted answer and its take (the server has confirmed it). */
  remove(id: string): Promise<void>;
  /** Drops the drafts taken before `before` (ms since the epoch) that no submitted answer refers to. */
  removeStaleDrafts(before: number): Promise<void>;
  /** The newest draft of the candidate's question that no submitted answer refers to (a take kept after a crash). */
  findDraft(candidateId: string, questionId: string): Promise<DraftTake | undefined>;
  putChunk(chunk: RecordedChunk): Promise<void>;
  /** The chunks of the newest take of the candidate's question that has any, by offset ([] when none). */
  findChunks(candidateId: string, questionId: string): Promise<RecordedChunk[]>;
  removeChunks(takeId: string): Promise<void>;
  /** Forgets everything of one candidate: answers, drafts and chunks (they withdrew and had their answers deleted). */
  removeCandidate(candidateId: string): Promise<void>;
}

const DB_NAME = 'screenroom';
/** 1: `pending-answers` with every file inline. 2: adds `takes`. 3: adds `chunks`. */
const DB_VERSION = 3;
const PENDING = 'pending-answers';
const TAKES = 'takes';
const CHUNKS = 'chunks';

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
      const tx = (await db()).transaction([PENDING, TAKES], 'readwrite');
      const submitted = tx.objectStore(PENDING).count(id);
      submitted.onsuccess = () => {
        if (submitted.result === 0) tx.objectStore(TAKES).delete(id);
      };
      await transactionDone(tx);
    },
    async put(answer) {
      const tx = (await db()).transaction([PENDING, TAKES], 'readwrite');
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
      const tx = (await db()).transaction([PENDING, TAKES], 'readwrite');
      tx.objectStore(PENDING).delete(id);
      tx.objectStore(TAKES).delete(id);
      await transactionDone(tx);
    },
    async removeStaleDrafts(before) {
      const tx = (await db()).transaction([PENDING, TAKES], 'readwrite');
      const [submitted, takes] = await Promise.all([
        request(tx.objectStore(PENDING).getAllKeys()),
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
      const keep = new Set(submitted.map(String));
      for (const take of takes) if (!keep.has(take.id) && take.createdAt < before) tx.objectStore(TAKES).delete(take.id);
      await transactionDone(tx);
      const chunks = (await db()).transaction(CHUNKS, 'readwrite');
      const old = (await request(chunks.objectStore(CHUNKS).getAll())) as RecordedChunk[];
      for (const chunk of old) if (chunk.createdAt < before) chunks.objectStore(CHUNKS).delete([chunk.takeId, chunk.offset]);
      await transactionDone(chunks);
    },
    async findDraft(candidateId, questionId) {
      const tx = (await db()).transaction([PENDING, TAKES], 'readonly');
      const submitted = new Set((await request(tx.objectStore(PENDING).getAllKeys())).map(String));
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
      const tx = (await db()).transaction([PENDING, TAKES, CHUNKS], 'readwrite');
      for (const storeName of [PENDING, TAKES, CHUNKS]) {
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
