import { readHeader, vint } from '@/lib/shared-with-worker/ebml';

/**
 * A WebM take's length in seconds read from its header and its last cluster (cluster times are absolute), as the
 * server's server/internal/takes/webm_length.go reads it, without the media element: a <video> given the take had to be
 * asked to seek past the end to learn it, which reads the file and took longer the longer the take (issue 20 point 4:
 * 'Stop Recording' → confirmed must not grow with the answer's length). null when the take is not a WebM whose header
 * and last cluster read as browsers write them (then the media element decides). Shared code: it knows containers.
 * Loaded on its own (take-check.ts imports it when a take starts), not with every first visit: it imports nothing of
 * the app's but lib/shared-with-worker/ebml.ts (vite.config.ts's manualChunks pulls what it imports into its chunk), and is handed how a
 * blob's bytes are read.
 *
 * The figure is the start of the last block (not its end): a frame short of ffprobe's, which the take check (half the
 * time recorded) does not notice.
 */

const HEAD_BYTES = 64 * 1024;
/** How much of the end is searched for the last cluster's start: a second's cluster first, then a long one's. */
const TAIL_SCANS = [1024 * 1024, 8 * 1024 * 1024];

const EBML = 0x1a45dfa3;
const SEGMENT = 0x18538067;
const INFO = 0x1549a966;
const TIMESTAMP_SCALE = 0x2ad7b1;
const CLUSTER = 0x1f43b675;
const TIMECODE = 0xe7;
const SIMPLE_BLOCK = 0xa3;
const BLOCK_GROUP = 0xa0;
const BLOCK = 0xa1;
/** Top-level elements: one of them ends a cluster of unknown size (Cluster, Cues, Tags, Chapters, Attachments, SeekHead, Info, Tracks). */
const TOP_LEVEL = new Set([CLUSTER, 0x1c53bb6b, 0x1254c367, 0x1043a770, 0x1941a469, 0x114d9b74, INFO, 0x1654ae6b]);
const CLUSTER_ID = [0x1f, 0x43, 0xb6, 0x75];

type Element = { id: number; body: number; end: number | null };

/** The element at b[i]: its ID, where its body starts and ends (null: unknown size); null when no whole one is there. */
function element(b: Uint8Array, i: number): Element | null {
  const header = readHeader(b, i, b.length);
  if (typeof header === 'string') return null;
  if (header.size === null) return { id: header.id, body: header.data, end: null };
  if (header.size > b.length - header.data) return null;
  return { id: header.id, body: header.data, end: header.data + header.size };
}

function uintOf(b: Uint8Array, from: number, to: number): number | null {
  if (to - from > 6) return null;
  let value = 0;
  for (let j = from; j < to; j++) value = value * 256 + b[j]!;
  return value;
}

function matchesAt(b: Uint8Array, i: number, bytes: number[]): boolean {
  return bytes.every((byte, k) => b[i + k] === byte);
}

/** A cluster's start at i (its ID, a size that fits when `last`, then a Timecode of 1 to 8 bytes), as the server tells it. */
function isClusterAt(b: Uint8Array, i: number, last: boolean): boolean {
  if (i + 5 > b.length || !matchesAt(b, i, CLUSTER_ID)) return false;
  const size = vint(b, i + 4);
  if (size.width === 0) return false;
  const body = i + 4 + size.width;
  if (last && !size.unknown && b.length - body < size.value) return false;
  if (body >= b.length || b[body] !== TIMECODE) return false;
  const timecode = vint(b, body + 1);
  return timecode.width > 0 && timecode.value >= 1 && timecode.value <= 8;
}

function firstCluster(b: Uint8Array): number {
  for (let i = 0; i + 4 <= b.length; i++) if (b[i] === 0x1f && isClusterAt(b, i, false)) return i;
  return -1;
}

function lastCluster(b: Uint8Array): number {
  for (let i = b.length - 4; i >= 0; i--) if (b[i] === 0x1f && isClusterAt(b, i, true)) return i;
  return -1;
}

/** The segment's timestamp scale (ns a tick) from the header before the first cluster; null when it does not read. */
function timestampScale(head: Uint8Array): number | null {
  const ebml = element(head, 0);
  if (!ebml || ebml.id !== EBML || ebml.end === null) return null;
  const segment = element(head, ebml.end) ?? unsizedSegment(head, ebml.end);
  if (!segment || segment.id !== SEGMENT) return null;
  let scale = 1_000_000;
  for (let i = segment.body; i < head.length; ) {
    const child = element(head, i);
    if (!child || child.end === null) return null;
    if (child.id === INFO) {
      for (let j = child.body; j < child.end; ) {
        const field = element(head.subarray(0, child.end), j);
        if (!field || field.end === null) return null;
        if (field.id === TIMESTAMP_SCALE) {
          const value = uintOf(head, field.body, field.end);
          if (!value) return null;
          scale = value;
        }
        j = field.end;
      }
    }
    i = child.end;
  }
  return scale;
}

/** A segment whose known size runs past the header read: its ID and where its body starts. */
function unsizedSegment(head: Uint8Array, i: number): Element | null {
  if (!matchesAt(head, i, [0x18, 0x53, 0x80, 0x67])) return null;
  const size = vint(head, i + 4);
  return size.width ? { id: SEGMENT, body: i + 4 + size.width, end: null } : null;
}

/** Where the last block of the cluster at b[0] starts, in ticks; null when the cluster does not read. */
function lastBlockTicks(b: Uint8Array): number | null {
  const cluster = element(b, 0);
  if (!cluster || cluster.id !== CLUSTER) return null;
  const end = cluster.end ?? b.length;
  let timecode: number | null = null;
  let latest: number | null = null;
  for (let i = cluster.body; i < end; ) {
    const child = element(b.subarray(0, end), i);
    if (child && child.end !== null && TOP_LEVEL.has(child.id)) break; // the end of a cluster of unknown size
    if (!child || child.end === null) return null;
    if (child.id === TIMECODE) timecode = uintOf(b, child.body, child.end);
    if (child.id === SIMPLE_BLOCK || child.id === BLOCK_GROUP) {
      let block: Element | null = child;
      if (child.id === BLOCK_GROUP) {
        block = null;
        for (let j = child.body; j < child.end; ) {
          const part = element(b.subarray(0, child.end), j);
          if (!part || part.end === null) return null;
          if (part.id === BLOCK) block = part;
          j = part.end;
        }
      }
      if (!block || block.end === null || timecode === null) return null;
      const track = vint(b, block.body);
      const at = block.body + track.width;
      if (track.width === 0 || at + 3 > block.end || (b[at + 2]! & 0x06) !== 0) return null; // laced: not as browsers write
      const relative = ((b[at]! << 8) | b[at + 1]!) << 16 >> 16; // int16
      latest = Math.max(latest ?? -Infinity, timecode + relative);
    }
    i = child.end;
  }
  return latest;
}

export async function webmSeconds(blob: Blob, readBytes: (blob: Blob) => Promise<ArrayBuffer>): Promise<number | null> {
  const head = new Uint8Array(await readBytes(blob.slice(0, HEAD_BYTES)));
  if (element(head, 0)?.id !== EBML) return null;
  const headerEnd = firstCluster(head);
  if (headerEnd < 0) return null;
  const scale = timestampScale(head.subarray(0, headerEnd));
  if (scale === null) return null;
  for (const scan of TAIL_SCANS) {
    const from = Math.max(blob.size - scan, headerEnd);
    const tail = new Uint8Array(await readBytes(blob.slice(from)));
    const last = lastCluster(tail);
    if (last >= 0) {
      const ticks = lastBlockTicks(tail.subarray(last));
      return ticks === null ? null : Math.max(0, (ticks * scale) / 1e9);
    }
    if (from === headerEnd) break;
  }
  return null;
}
