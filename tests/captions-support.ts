// Calls of the captions and transcript routes (server/internal/review/captions.go), shared by their suites.
import { pbUrl } from "./helpers";

export type TranscriptFile = "captions.vtt" | "transcript.txt";

export type Fetched = { status: number; headers: Headers; text: string };

async function get(path: string, headers: Record<string, string> = {}): Promise<Fetched> {
  const res = await fetch(`${pbUrl()}${path}`, { headers });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/**
 * GET /api/screenroom/video-answers/{id}/{file} as a manager's page would: `auth` is an auth token sent in the
 * Authorization header, `fileToken` a file token in `?token=`, `download` asks for an attachment.
 */
export function fetchTranscript(
  videoAnswerId: string,
  file: TranscriptFile,
  { auth, fileToken, download, headers = {} }: { auth?: string; fileToken?: string; download?: boolean; headers?: Record<string, string> } = {},
) {
  const query = new URLSearchParams();
  if (fileToken !== undefined) query.set("token", fileToken);
  if (download) query.set("download", "1");
  const search = query.size ? `?${query}` : "";
  return get(`/api/screenroom/video-answers/${encodeURIComponent(videoAnswerId)}/${file}${search}`, {
    ...(auth ? { Authorization: auth } : {}),
    ...headers,
  });
}

/** GET /api/screenroom/shared/{token}/videos/{id}/{file}, as whoever holds the link (no session). */
export function fetchSharedTranscript(token: string, videoAnswerId: string, file: TranscriptFile, { download = false } = {}) {
  return get(
    `/api/screenroom/shared/${encodeURIComponent(token)}/videos/${encodeURIComponent(videoAnswerId)}/${file}${download ? "?download=1" : ""}`,
  );
}

/** Timed segments as the media worker stores them (video_answers.transcriptSegments). */
export const SEGMENTS = [
  { start: 0, end: 1.5, text: "Hello, I am Zoë." },
  { start: 1.5, end: 3.25, text: "I like <b>tags</b> & arrows -->" },
  { start: 62.04, end: 64, text: "Thank you." },
];

export const VTT =
  "WEBVTT\n" +
  "\n1\n00:00:00.000 --> 00:00:01.500\nHello, I am Zoë.\n" +
  "\n2\n00:00:01.500 --> 00:00:03.250\nI like &lt;b&gt;tags&lt;/b&gt; &amp; arrows --&gt;\n" +
  "\n3\n00:01:02.040 --> 00:01:04.000\nThank you.\n";

export const TRANSCRIPT = "Hello, I am Zoë. I like <b>tags</b> & arrows --> Thank you.";
