// EBML, the format WebM is written in: each element is a header (an ID and a size, both variable-length integers)
// and a body of that size. Read in the candidate's browser (features/interview/upload/webm-length.ts: a take's length
// at Stop) and by the media worker (worker/src/repair-webm.ts: where a cut recording can end), which bundles it from
// here; the server has its own reader in Go (server/internal/takes/webm_length.go). No imports: the worker builds it
// alone.

/** A variable-length integer's byte count from its first byte (1-8); 0 for 0x00, which is never valid. */
export function vintLength(first: number): number {
  return first === 0 ? 0 : Math.clz32(first) - 23;
}

export type Vint = {
  value: number;
  /** its byte count; 0 when no whole one is at that place */
  width: number;
  /** all its value bits set: EBML's unknown size (a live stream's Segment or Cluster) */
  unknown: boolean;
};

/** The variable-length integer at bytes[at], within bytes[0:end]. */
export function vint(bytes: Uint8Array, at: number, end = bytes.length): Vint {
  const width = at < end ? vintLength(bytes[at]!) : 0;
  if (width === 0 || at + width > end) return { value: 0, width: 0, unknown: false };
  let value = bytes[at]! & (0xff >> width);
  let allOnes = value === 0xff >> width;
  for (let i = at + 1; i < at + width; i++) {
    value = value * 256 + bytes[i]!;
    allOnes &&= bytes[i] === 0xff;
  }
  return { value, width, unknown: allOnes };
}

export interface EbmlHeader {
  id: number;
  /** where the element's body starts */
  data: number;
  /** the body's size; null when it is unknown */
  size: number | null;
  /** where its size field starts and how many bytes it has (the worker rewrites a cut Segment's) */
  sizeAt: number;
  sizeLength: number;
}

/**
 * The element header at `at`: 'incomplete' when it runs past `end` (a cut inside it), 'invalid' when its first bytes
 * are not a variable-length integer (not EBML, or garbage). IDs are 1 to 4 bytes long.
 */
export function readHeader(bytes: Uint8Array, at: number, end: number): EbmlHeader | 'incomplete' | 'invalid' {
  if (at >= end) return 'incomplete';
  const idLength = vintLength(bytes[at]!);
  if (idLength === 0 || idLength > 4) return 'invalid';
  if (at + idLength >= end) return 'incomplete';
  const sizeAt = at + idLength;
  if (vintLength(bytes[sizeAt]!) === 0) return 'invalid';
  const size = vint(bytes, sizeAt, end);
  if (size.width === 0) return 'incomplete';
  let id = 0;
  for (let i = at; i < sizeAt; i++) id = id * 256 + bytes[i]!;
  return { id, data: sizeAt + size.width, size: size.unknown ? null : size.value, sizeAt, sizeLength: size.width };
}
