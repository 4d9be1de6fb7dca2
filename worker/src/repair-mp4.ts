// Where an mp4 cut at an arbitrary byte can end (issue 22). Safari's MediaRecorder writes a fragmented mp4: ftyp,
// moov (the tracks, no samples), then one moof (a fragment's sample table) + mdat (its samples) pair after another.
// Such a file cut anywhere keeps ftyp + moov and every complete moof + mdat pair. Reads only box headers (a 32-bit
// size, or 1 and a 64-bit size, and a four-letter type) and the sample counts in each moof's trun boxes.
import type { Cut } from "./cut";

interface Box {
  type: string;
  /** where the box's payload starts (after its header) */
  data: number;
  /** where the box ends (the end of the file for a size of 0, "up to the end") */
  end: number;
}

/** The box at `at`, "incomplete" when its header or payload runs past `limit`, "invalid" when its size is impossible. */
function readBox(bytes: Uint8Array, at: number, limit: number): Box | "incomplete" | "invalid" {
  if (at + 8 > limit) return "incomplete";
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const size32 = view.getUint32(at);
  const type = String.fromCharCode(bytes[at + 4]!, bytes[at + 5]!, bytes[at + 6]!, bytes[at + 7]!);
  if (!/^[\x20-\x7e]{4}$/.test(type)) return "invalid";
  let data = at + 8;
  let size = size32;
  if (size32 === 1) {
    if (at + 16 > limit) return "incomplete";
    size = Number(view.getBigUint64(at + 8));
    data = at + 16;
  } else if (size32 === 0) {
    size = limit - at;
  }
  if (size < data - at) return "invalid";
  return at + size > limit ? "incomplete" : { type, data, end: at + size };
}

/** The boxes directly inside `parent`, as far as they are complete. */
function children(bytes: Uint8Array, parent: Box): Box[] {
  const boxes: Box[] = [];
  for (let at = parent.data; at < parent.end; ) {
    const box = readBox(bytes, at, parent.end);
    if (typeof box === "string") break;
    boxes.push(box);
    at = box.end;
  }
  return boxes;
}

/** The samples (frames) a moof describes: the sum of its trun boxes' sample_count (after version and flags). */
function samplesOf(bytes: Uint8Array, moof: Box): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let samples = 0;
  for (const traf of children(bytes, moof).filter((b) => b.type === "traf")) {
    for (const trun of children(bytes, traf).filter((b) => b.type === "trun")) {
      if (trun.data + 8 <= trun.end) samples += view.getUint32(trun.data + 4);
    }
  }
  return samples;
}

/**
 * Where to cut an mp4 (bytes from a MediaRecorder, possibly cut anywhere): after its last complete moof + mdat
 * fragment, or the whole file when nothing is missing (fragmented or not). Refused when there is no complete ftyp or
 * moov (the cut is inside one of them), or when no complete fragment with a sample is left (a plain mp4 cut anywhere
 * keeps none).
 */
export function findMp4Cut(bytes: Uint8Array): Cut {
  const refuse = (reason: string): Cut => ({ usable: false, format: "mp4", reason });
  let keep = 0;
  let ftyp = false;
  let moov = false;
  let fragments = 0;
  let samples = 0;
  let moof: Box | null = null;
  let stoppedIn = "";
  for (let at = 0; at < bytes.length; ) {
    const box = readBox(bytes, at, bytes.length);
    if (box === "invalid") {
      stoppedIn = `unreadable data at byte ${at}`;
      break;
    }
    if (box === "incomplete") {
      const type = at + 8 <= bytes.length ? String.fromCharCode(...bytes.subarray(at + 4, at + 8)) : "";
      stoppedIn = /^\w{4}$/.test(type) ? `the ${type} box at byte ${at}` : `a box header at byte ${at}`;
      break;
    }
    at = box.end;
    if (box.type === "ftyp") ftyp = true;
    if (box.type === "moov") moov = true;
    if (box.type === "moof") {
      moof = box;
      continue; // kept only with its mdat
    }
    if (box.type === "mdat" && moof) {
      fragments += 1;
      samples += samplesOf(bytes, moof);
      moof = null;
    }
    if (!moof) keep = box.end;
  }

  const where = `(the file ends at byte ${bytes.length}${stoppedIn ? `, inside ${stoppedIn}` : ""})`;
  if (!ftyp) return refuse(`no ftyp box ${where}`);
  if (!moov) return refuse(`no moov box, the track list ${where}`);
  // nothing missing: any well-formed mp4, fragmented or not, is kept whole
  if (!stoppedIn && !moof) return { usable: true, format: "mp4", keep: bytes.length, units: Math.max(fragments, 1) };
  // cut: only a fragmented mp4 keeps anything (a plain one's moov indexes samples that are gone)
  if (fragments === 0) return refuse(`no complete fragment (moof + mdat) ${where}`);
  if (samples === 0) return refuse(`no sample in the ${fragments} complete fragment(s) ${where}`);
  return { usable: true, format: "mp4", keep, units: fragments };
}
