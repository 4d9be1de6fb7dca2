// Where a webm cut at an arbitrary byte can end (issue 22): after its last complete Cluster. Reads only EBML
// element headers (an ID and a size, both variable-length integers); MediaRecorder writes the Segment, and Chrome
// every Cluster, with the unknown size 0x01FFFFFFFFFFFFFF, so such a Cluster ends where the next top-level element
// (the next Cluster) starts, or at the end of the bytes.
import { readHeader, vintLength, type EbmlHeader as Header } from "../../src/lib/shared-with-worker/ebml";
import type { Cut } from "./cut";

const EBML = 0x1a45dfa3;
const SEGMENT = 0x18538067;
const CLUSTER = 0x1f43b675;
const TRACKS = 0x1654ae6b;
const SIMPLE_BLOCK = 0xa3;
const BLOCK_GROUP = 0xa0;

/** The Segment's children the refusals name (a cut inside one of them before the first Cluster). */
const NAMES: Record<number, string> = {
  0x114d9b74: "SeekHead",
  0x1549a966: "Info",
  [TRACKS]: "Tracks",
  0x1254c367: "Tags",
  0xec: "Void",
  0x1043a770: "Chapters",
  0x1941a469: "Attachments",
  0x1c53bb6b: "Cues",
};

/**
 * Whether an element starting with this byte is a top-level or Segment-level one (EBML, Segment, Cluster, Cues,
 * Tags...): their IDs, and only theirs, are four bytes long, so it ends a Cluster of unknown size even when the
 * cut left only its first byte.
 */
function isLevelOneStart(first: number): boolean {
  return vintLength(first) === 4;
}

/**
 * The Cluster whose header is `cluster`: where it ends and how many blocks (frames) it holds, or null when the cut
 * is inside it. A sized Cluster is complete when all its bytes are there; one of unknown size when every child up to
 * the next level-one element, or up to `end`, is complete.
 */
function readCluster(bytes: Uint8Array, cluster: Header, end: number): { end: number; blocks: number } | null {
  const limit = cluster.size === null ? end : cluster.data + cluster.size;
  if (limit > end) return null;
  let blocks = 0;
  let at = cluster.data;
  while (at < limit) {
    if (cluster.size === null && isLevelOneStart(bytes[at]!)) return { end: at, blocks };
    const child = readHeader(bytes, at, limit);
    if (child === "invalid" || child === "incomplete" || child.size === null || child.data + child.size > limit) {
      // a sized Cluster is all there: what is inside is ffmpeg's to judge; an unsized one is cut inside a child
      if (cluster.size !== null) return { end: limit, blocks };
      return null;
    }
    if (child.id === SIMPLE_BLOCK || child.id === BLOCK_GROUP) blocks += 1;
    at = child.data + child.size;
  }
  return { end: limit, blocks };
}

/**
 * Where to cut a webm (bytes from a MediaRecorder, possibly cut anywhere): the end of its last complete Cluster, or
 * the whole file when nothing is missing. Refused when the cut is inside the EBML header, before the Segment's track
 * list is complete, or before a complete Cluster with a frame. A Segment of known size that the cut shortened gets its
 * size rewritten (`patch`) so the kept bytes are a well-formed file.
 */
export function findWebmCut(bytes: Uint8Array): Cut {
  const refuse = (reason: string): Cut => ({ usable: false, format: "webm", reason });
  const ebml = readHeader(bytes, 0, bytes.length);
  if (ebml === "invalid" || (ebml !== "incomplete" && ebml.id !== EBML)) return refuse("not a webm file (no EBML header)");
  if (ebml === "incomplete" || ebml.size === null || ebml.data + ebml.size > bytes.length) {
    return refuse(`the file ends at byte ${bytes.length}, inside the EBML header`);
  }
  const segment = readHeader(bytes, ebml.data + ebml.size, bytes.length);
  if (segment === "incomplete") return refuse(`the file ends at byte ${bytes.length}, before the Segment`);
  if (segment === "invalid" || segment.id !== SEGMENT) return refuse("no Segment after the EBML header");
  const declaredEnd = segment.size === null ? null : segment.data + segment.size;
  const end = declaredEnd === null ? bytes.length : Math.min(declaredEnd, bytes.length);

  let keep = segment.data;
  let tracks = false;
  let clusters = 0;
  let blocks = 0;
  let stoppedIn = "";
  for (let at = segment.data; at < end; ) {
    const element = readHeader(bytes, at, end);
    if (element === "invalid") {
      stoppedIn = `unreadable data at byte ${at}`;
      break;
    }
    if (element === "incomplete") {
      stoppedIn = `an element header at byte ${at}`;
      break;
    }
    if (element.id === CLUSTER) {
      const cluster = readCluster(bytes, element, end);
      if (!cluster) {
        stoppedIn = clusters === 0 ? "the first Cluster" : `Cluster ${clusters + 1}`;
        break;
      }
      clusters += 1;
      blocks += cluster.blocks;
      keep = at = cluster.end;
      continue;
    }
    const name = NAMES[element.id] ?? `element 0x${element.id.toString(16)}`;
    if (element.size === null || element.data + element.size > end) {
      stoppedIn = `the ${name}`;
      break;
    }
    if (element.id === TRACKS) tracks = true;
    keep = at = element.data + element.size;
  }

  const where = `(the file ends at byte ${bytes.length}${stoppedIn ? `, inside ${stoppedIn}` : ""})`;
  if (!tracks) return refuse(`no track list ${where}`);
  if (clusters === 0) return refuse(`no complete Cluster ${where}`);
  if (blocks === 0) return refuse(`no frame in the ${clusters} complete Cluster(s) ${where}`);
  const cut: Cut = { usable: true, format: "webm", keep, units: clusters };
  if (declaredEnd !== null && keep < declaredEnd) cut.patch = { at: segment.sizeAt, bytes: sizeField(keep - segment.data, segment.sizeLength) };
  return cut;
}

/** `value` as an EBML size field of exactly `length` bytes (it fits: it is below the size it replaces). */
function sizeField(value: number, length: number): Uint8Array {
  const field = new Uint8Array(length);
  let rest = value;
  for (let i = length - 1; i >= 0; i--) {
    field[i] = rest % 256;
    rest = Math.floor(rest / 256);
  }
  field[0]! |= 0x80 >> (length - 1);
  return field;
}
