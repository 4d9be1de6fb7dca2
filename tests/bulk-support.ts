// The pipeline's bulk routes (server/internal/bulk), as the SPA calls them: POST with the manager's token, the
// answer a stream of JSON lines (every action but export) or a zip (export). A refusal of the whole request is an
// ordinary JSON error, thrown as the SDK throws it, so statusOf and errorOf work on these calls too.
import type PocketBase from "pocketbase";
import { ClientResponseError } from "pocketbase";
import { pbUrl } from "./helpers";
import { readZip, type ZipEntries } from "./zip-reader";

export type BulkAction = "decide" | "resend-invite" | "message" | "erase";
export type BulkBody = { candidates: string[] } | { filter: Record<string, unknown> } | Record<string, unknown>;

export interface BulkRow {
  type: "row";
  id: string;
  email: string;
  status: "done" | "skipped" | "failed";
  code?: string;
  message?: string;
}
export interface BulkEnd {
  type: "end";
  done: number;
  skipped: number;
  failed: number;
  hourlyCap: { limit: number; remaining: number; availableAt: string | null };
}
export interface BulkAnswer {
  total: number;
  rows: BulkRow[];
  end: BulkEnd;
  /** the answer's content type */
  contentType: string;
}

async function post(pb: PocketBase, path: string, body: unknown): Promise<Response> {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (pb.authStore.token) headers.Authorization = pb.authStore.token;
  // a candidate's client adds its key in beforeSend: ask it for the headers it would send
  let url = `${pbUrl()}${path}`;
  let options: { headers: Record<string, string> } = { headers };
  if (pb.beforeSend) {
    const changed = await pb.beforeSend(url, options);
    if (changed) {
      url = changed.url ?? url;
      options = { headers: { ...headers, ...((changed.options?.headers as Record<string, string>) ?? {}) } };
    }
  }
  const res = await fetch(url, { method: "POST", headers: options.headers, body: typeof body === "string" ? body : JSON.stringify(body) });
  if (!res.ok) {
    const response = (await res.json().catch(() => ({}))) as Record<string, unknown>;
    throw new ClientResponseError({ url, status: res.status, response });
  }
  return res;
}

/** Runs a bulk action on job `jobId` and reads its whole stream. `body` may be a raw string (sent as it is). */
export async function bulkAction(pb: PocketBase, jobId: string, action: BulkAction, body: BulkBody | string): Promise<BulkAnswer> {
  const res = await post(pb, `/api/screenroom/jobs/${encodeURIComponent(jobId)}/bulk/${action}`, body);
  const lines = (await res.text())
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as { type: string } & Record<string, unknown>);
  const start = lines[0] as { type: string; total: number };
  const end = lines.at(-1) as unknown as BulkEnd;
  if (start?.type !== "start" || end?.type !== "end") throw new Error(`a bulk answer without its start or end: ${JSON.stringify(lines)}`);
  return { total: start.total, rows: lines.slice(1, -1) as unknown as BulkRow[], end, contentType: res.headers.get("content-type") ?? "" };
}

/** Runs a bulk export: the zip's entries, and the counts of its headers. */
export async function bulkExport(pb: PocketBase, jobId: string, body: BulkBody | string) {
  const res = await post(pb, `/api/screenroom/jobs/${encodeURIComponent(jobId)}/bulk/export`, body);
  const zip: ZipEntries = readZip(Buffer.from(await res.arrayBuffer()));
  return {
    zip,
    exported: Number(res.headers.get("x-bulk-exported")),
    notFound: Number(res.headers.get("x-bulk-not-found")),
    disposition: res.headers.get("content-disposition") ?? "",
  };
}

/** What one row says, without its id and e-mail: two rows compared for what they tell. */
export const toldOf = (row: BulkRow | undefined) => (row ? { status: row.status, code: row.code, message: row.message } : undefined);
