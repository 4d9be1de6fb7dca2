/**
 * The check a take passes at 'Stop Recording' before it counts (issue 23, decisions.md "A take is checked at Stop"):
 * it has bytes, a video and an audio track, and a length close to the time recorded. A browser that records
 * nothing (WebKitGTK on Debian hands over 0 bytes), a camera or microphone that delivered no track, or a recording
 * cut far short never reaches the upload queue. Shared code: it knows containers, not questions or answers.
 */

export type TakeProblem = 'empty' | 'no-video' | 'no-audio' | 'short';

/** A blob's bytes (through FileReader where Blob.arrayBuffer is missing, as in jsdom). */
export function readBytes(blob: Blob): Promise<ArrayBuffer> {
  if (typeof blob.arrayBuffer === 'function') return blob.arrayBuffer();
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as ArrayBuffer);
    reader.onerror = () => reject(reader.error ?? new Error('The take could not be read'));
    reader.readAsArrayBuffer(blob);
  });
}

/** Whether a file's first bytes are WebM's (EBML's magic number); MediaRecorder's other container is MP4. */
export function isWebm(head: Uint8Array): boolean {
  return head[0] === 0x1a && head[1] === 0x45 && head[2] === 0xdf && head[3] === 0xa3;
}

/** How much of a take's start holds its track list (WebM's Tracks, MP4's moov; MediaRecorder writes them first). */
const HEADER_BYTES = 256 * 1024;

function contains(bytes: Uint8Array, text: string): boolean {
  const needle = Array.from(text, (c) => c.charCodeAt(0));
  outer: for (let i = 0; i + needle.length <= bytes.length; i++) {
    for (let j = 0; j < needle.length; j++) if (bytes[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}

/**
 * The tracks a take's header names: WebM's CodecIDs (V_VP8, V_VP9, V_AV1, V_MPEG4…; A_OPUS, A_VORBIS…), MP4's
 * handler types ('vide', 'soun').
 */
export async function tracksOf(blob: Blob): Promise<{ video: boolean; audio: boolean }> {
  const head = new Uint8Array(await readBytes(blob.slice(0, HEADER_BYTES)));
  if (isWebm(head)) return { video: contains(head, 'V_'), audio: contains(head, 'A_') };
  return { video: contains(head, 'vide'), audio: contains(head, 'soun') };
}

/**
 * The take's length in seconds as the browser reads it, or null when it cannot tell (MediaRecorder's WebM carries no
 * duration until it is read to the end: the element is asked to seek past the end, which makes it find out).
 */
export function probeDuration(blob: Blob, timeoutMs = 5000): Promise<number | null> {
  return new Promise((resolve) => {
    const video = document.createElement('video');
    const url = URL.createObjectURL(blob);
    let settled = false;
    const done = (value: number | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      video.removeAttribute('src');
      video.load();
      URL.revokeObjectURL(url);
      resolve(value);
    };
    const timer = setTimeout(() => done(null), timeoutMs);
    const known = () => Number.isFinite(video.duration) && video.duration > 0;
    video.preload = 'metadata';
    video.muted = true;
    video.onloadedmetadata = () => {
      if (known()) return done(video.duration);
      video.currentTime = Number.MAX_SAFE_INTEGER;
    };
    video.ondurationchange = () => {
      if (known()) done(video.duration);
    };
    video.onerror = () => done(null);
    video.src = url;
  });
}

/**
 * A take's length: a WebM's from its header and last cluster (webm-length.ts, a few milliseconds at any length), else
 * (MP4, a WebM that does not read so) the browser's media element's.
 */
export async function takeSeconds(blob: Blob): Promise<number | null> {
  const seconds = await loadWebmLength()
    .then(({ webmSeconds }) => webmSeconds(blob, readBytes))
    .catch(() => null);
  return seconds ?? probeDuration(blob);
}

const loadWebmLength = () => import('./webm-length');

/** Fetches the WebM reader while a take records, so 'Stop Recording' does not wait for it (it is not in the first visit). */
export function prepareTakeCheck(): void {
  void loadWebmLength().catch(() => undefined);
}

/**
 * The problem with a finished take, or null when it may be submitted. `recordedMs`: how long the recorder ran. A
 * length the browser cannot read is no problem (the server's worker measures it); one under half the time recorded
 * (over two seconds of it) is.
 */
export async function checkTake(
  blob: Blob,
  recordedMs: number,
  probe: (blob: Blob) => Promise<number | null> = takeSeconds,
): Promise<TakeProblem | null> {
  if (blob.size === 0) return 'empty';
  const tracks = await tracksOf(blob);
  if (!tracks.video) return 'no-video';
  if (!tracks.audio) return 'no-audio';
  if (recordedMs > 2000) {
    const seconds = await probe(blob);
    if (seconds !== null && seconds * 1000 < recordedMs / 2) return 'short';
  }
  return null;
}
