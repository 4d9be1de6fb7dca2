// Small additions to helpers.ts for the limits and business-rules suites.
import { readdirSync } from "node:fs";
import type PocketBase from "pocketbase";
import { ClientResponseError } from "pocketbase";
import { expect } from "vitest";
import { errorOf, fixture, pbUrl, signUp, superuser, uniqueEmail } from "./helpers";

/**
 * The names in a folder, none when it is not there. One read: PocketBase removes a deleted record's files in the
 * background, so a folder can go between a check for it and a read of it (a race the checks below would lose).
 */
/** The parts a staged take's dir names (server/internal/takes: one file per part, named by its offset). */
export function partsOf(takeDir: string): string[] {
  return entriesOf(takeDir).filter((name) => /^\d+$/.test(name));
}

export function entriesOf(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw err;
  }
}

/** What a list request answers, reduced to what an attacker compares (status, count and ids, or the error body). */
export async function listOutcome(pb: PocketBase, collection: string, query: Record<string, string>) {
  try {
    const res = await pb.collection(collection).getList(1, 50, query);
    return { status: 200, count: res.totalItems, ids: res.items.map((r) => r.id) };
  } catch (err) {
    if (!(err instanceof ClientResponseError)) throw err;
    return { status: err.status, body: err.response };
  }
}

/** A string of exactly `n` characters. */
export const chars = (n: number, c = "a") => c.repeat(n);

let su: Promise<PocketBase> | undefined;
/** One superuser client per file, to read what the server really stored. */
export const admin = () => (su ??= superuser());

/** How many answers a candidate has on the server. */
export const answersOf = (candidate: string) => countOf("answers", "candidate = {:c}", { c: candidate });

/** How many records of `collection` match `filter` (with {:params}), seen by a superuser. */
export async function countOf(collection: string, filter: string, params: Record<string, unknown> = {}) {
  const pb = await admin();
  const page = await pb.collection(collection).getList(1, 1, { filter: pb.filter(filter, params) });
  return page.totalItems;
}

/**
 * What is left of a candidate in every collection that names them, counted by a superuser: a deletion, an erasure or
 * the retention cron leaves 0 in each (NOTHING_LEFT). Queued e-mails are counted by each test its own way (by
 * address, or by the key in their text).
 */
export async function candidateRowsLeft(candidate: string) {
  const c = { c: candidate };
  return {
    candidates: await countOf("candidates", "id = {:c}", c),
    answers: await countOf("answers", "candidate = {:c}", c),
    video_answers: await countOf("video_answers", "answer.candidate = {:c}", c),
    text_answers: await countOf("text_answers", "answer.candidate = {:c}", c),
    ratings: await countOf("ratings", "candidate = {:c}", c),
    comments: await countOf("comments", "candidate = {:c}", c),
    share_links: await countOf("share_links", "candidate = {:c}", c),
    question_progress: await countOf("question_progress", "candidate = {:c}", c),
    staged_takes: await countOf("staged_takes", "candidate = {:c}", c),
    webhook_deliveries: await countOf("webhook_deliveries", "candidate = {:c}", c),
    decision_messages: await countOf("decision_messages", "candidate = {:c}", c),
  };
}
export const NOTHING_LEFT = {
  candidates: 0, answers: 0, video_answers: 0, text_answers: 0, ratings: 0, comments: 0, share_links: 0,
  question_progress: 0, staged_takes: 0, webhook_deliveries: 0, decision_messages: 0,
};

/** The stored record, or null when it does not exist, seen by a superuser. */
export async function storedOrNull(collection: string, id: string) {
  const pb = await admin();
  try {
    return await pb.collection(collection).getOne(id);
  } catch (err) {
    if (err instanceof ClientResponseError && err.status === 404) return null;
    throw err;
  }
}

const describe = (err: ClientResponseError) => `${err.status} ${JSON.stringify(err.response)}`;

/** Expects the call to be refused with 400 and an error on `field`; returns that field's error. */
export async function expectFieldError(call: () => Promise<unknown>, field: string) {
  const err = await errorOf(call);
  expect(err.status, describe(err)).toBe(400);
  expect(err.response?.data?.[field], describe(err)).toBeDefined();
  return err.response.data[field] as { code: string; message: string };
}

export interface BatchFailure {
  index: number;
  response: { status: number; message: string; data: Record<string, { code: string; message: string }> };
}

/** The failing sub-request of a refused batch (PocketBase: data.requests[N].response). */
export function batchFailure(err: ClientResponseError): BatchFailure {
  const requests = (err.response?.data?.requests ?? {}) as Record<string, { response: BatchFailure["response"] }>;
  const [index, entry] = Object.entries(requests)[0] ?? [];
  if (index === undefined || !entry) throw new Error(`not a batch failure: ${describe(err)}`);
  return { index: Number(index), response: entry.response };
}

/** Expects a batch to be refused with 400, the request at `index` failing on `field`. */
export async function expectBatchFieldError(call: () => Promise<unknown>, index: number, field: string) {
  const err = await errorOf(call);
  expect(err.status, describe(err)).toBe(400);
  const failure = batchFailure(err);
  expect(failure.index, describe(err)).toBe(index);
  expect(failure.response?.data?.[field], describe(err)).toBeDefined();
  return failure.response.data[field]!;
}

/** A valid PNG (the logo fixture) padded with trailing bytes to exactly `size` bytes. */
export function pngOfSize(size: number, name = "big.png") {
  const png = fixture("logo.png");
  const bytes = new Uint8Array(size);
  bytes.set(png);
  return new File([bytes], name, { type: "image/png" });
}

export const textFile = (name = "notes.txt") =>
  new File(["These are plain notes, not an image.\n"], name, { type: "text/plain" });

/** The smallest ISO base media header a content sniffer reads as video/mp4 (ftyp box, isom brand). */
export function mp4File(name = "answer.mp4") {
  const ftyp = [0, 0, 0, 28, ...Buffer.from("ftypisom"), 0, 0, 2, 0, ...Buffer.from("isomiso2mp41")];
  const free = [0, 0, 0, 8, ...Buffer.from("free")];
  return new File([new Uint8Array([...ftyp, ...free])], name, { type: "video/mp4" });
}

/** A manager invite's key (its hidden `secret`, which only the invite e-mail carries), read as a superuser. */
export async function inviteKey(inviteId: string): Promise<string> {
  return (await (await admin()).collection("manager_invites").getOne(inviteId)).secret as string;
}

/** POST /api/screenroom/invites/{id}/accept, with the given token (or none). */
export async function acceptInvite(inviteId: string, token?: string) {
  const res = await fetch(`${pbUrl()}/api/screenroom/invites/${encodeURIComponent(inviteId)}/accept`, {
    method: "POST",
    headers: token ? { Authorization: token } : {},
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, body: body as Record<string, unknown> };
}

/** A fresh user who joins `w`'s company through an invite its manager sends, as the product adds a co-manager. */
export async function coManagerOf(w: { manager: { pb: PocketBase }; company: { id: string } }, label: string) {
  const fellow = await signUp({ email: uniqueEmail(label) });
  const invite = await w.manager.pb.collection("manager_invites").create({ company: w.company.id, email: fellow.user.email });
  expect((await acceptInvite(invite.id, fellow.pb.authStore.token)).status).toBe(200);
  return fellow;
}
