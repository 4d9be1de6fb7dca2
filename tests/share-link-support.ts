// Calls of the share-link routes (server/internal/review/share_links_routes.go, share_links_shared.go), shared by the
// share-link suites.
import type PocketBase from "pocketbase";
import type { RecordModel } from "pocketbase";
import { pbUrl } from "./helpers";

export type CreatedLink = { link: RecordModel; token: string; url: string };

/** POST /api/screenroom/share-links as `pb`. */
export function createLink(pb: PocketBase, body: Record<string, unknown>) {
  return pb.send<CreatedLink>("/api/screenroom/share-links", { method: "POST", body });
}

/** POST /api/screenroom/share-links/{id}/revoke as `pb`. */
export function revokeLink(pb: PocketBase, id: string) {
  return pb.send<RecordModel>(`/api/screenroom/share-links/${encodeURIComponent(id)}/revoke`, { method: "POST" });
}

/** GET /api/screenroom/shared/{token} as a browser without any session: status, headers, the raw and parsed body. */
export async function openShared(token: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${pbUrl()}/api/screenroom/shared/${encodeURIComponent(token)}`, { headers });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: JSON.parse(text) as Record<string, unknown> };
}

/** GET /api/screenroom/shared/{token}/videos/{id}: status and body (the bytes, or the error's JSON as text). */
export async function fetchSharedVideo(token: string, videoAnswerId: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${pbUrl()}/api/screenroom/shared/${encodeURIComponent(token)}/videos/${encodeURIComponent(videoAnswerId)}`, { headers });
  const bytes = new Uint8Array(await res.arrayBuffer());
  return { status: res.status, headers: res.headers, bytes, text: new TextDecoder().decode(bytes) };
}
