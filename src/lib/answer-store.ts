/**
 * The candidate's finished takes, kept in IndexedDB until the server has confirmed them, so a reload, a crash or
 * a dropped connection never loses an answer (decisions.md "No answer is ever lost").
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

export interface AnswerStore {
  put(answer: PendingAnswer): Promise<void>;
  list(): Promise<PendingAnswer[]>;
  remove(id: string): Promise<void>;
}

const DB_NAME = 'screenroom';
const DB_VERSION = 1;
const STORE = 'pending-answers';

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
      req.onupgradeneeded = () => {
        if (!req.result.objectStoreNames.contains(STORE)) req.result.createObjectStore(STORE, { keyPath: 'id' });
      };
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error ?? new Error('IndexedDB is not available'));
    });
    // A failed open may succeed later (private mode switched off, storage freed): do not cache the failure.
    opened.catch(() => {
      opened = undefined;
    });
    return opened;
  };

  return {
    async put(answer) {
      const tx = (await db()).transaction(STORE, 'readwrite');
      tx.objectStore(STORE).put(answer);
      await transactionDone(tx);
    },
    async list() {
      const tx = (await db()).transaction(STORE, 'readonly');
      const all = (await request(tx.objectStore(STORE).getAll())) as PendingAnswer[];
      return all.sort((a, b) => a.createdAt - b.createdAt);
    },
    async remove(id) {
      const tx = (await db()).transaction(STORE, 'readwrite');
      tx.objectStore(STORE).delete(id);
      await transactionDone(tx);
    },
  };
}

const ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** A PocketBase record id: 15 characters of [a-z0-9]. */
export function newRecordId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(15));
  return Array.from(bytes, (byte) => ID_ALPHABET[byte % ID_ALPHABET.length]).join('');
}
