// A recording that may have been cut at any byte (issue 22: a take staged while it was recorded, submitted after the
// browser died, is exactly the bytes that reached the server) becomes a playable file with a duration and a seek
// index: the bytes up to the last complete webm Cluster or mp4 fragment, remuxed by ffmpeg. A whole recording goes
// through unchanged but for the remux; one with nothing usable left is refused with the reason.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { probeDuration, remux } from "./media";
import { findMp4Cut } from "./repair-mp4";
import { findWebmCut } from "./repair-webm";
import type { Cut, RecordingFormat } from "./cut";

/** A recording nothing playable can be made of: retrying cannot help, so the worker gives up on it at once. */
export class UnusableRecordingError extends Error {
  constructor(reason: string) {
    super(`Unusable recording: ${reason}`);
    this.name = "UnusableRecordingError";
  }
}

/** Where to cut a recording, told apart by its first bytes: a webm starts with the EBML ID, an mp4 with a box `ftyp`. */
export function findCut(bytes: Uint8Array): Cut {
  if (bytes.length >= 4 && bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3) return findWebmCut(bytes);
  if (bytes.length >= 8 && String.fromCharCode(...bytes.subarray(4, 8)) === "ftyp") return findMp4Cut(bytes);
  return { usable: false, format: "unknown", reason: `neither a webm nor an mp4 file (${bytes.length} bytes)` };
}

/** The bytes a usable cut keeps: a view of `bytes` (all of it when nothing is cut), or a copy when it is patched. */
export function keptBytes(bytes: Uint8Array, cut: Extract<Cut, { usable: true }>): Uint8Array {
  if (cut.keep === bytes.length && !cut.patch) return bytes;
  if (!cut.patch) return bytes.subarray(0, cut.keep);
  // a copy, never the caller's bytes (a Buffer's slice shares them)
  const kept = new Uint8Array(cut.keep);
  kept.set(bytes.subarray(0, cut.keep));
  kept.set(cut.patch.bytes, cut.patch.at);
  return kept;
}

export interface RepairedRecording {
  /** the playable file, `answer.webm` or `answer.mp4` in the given directory */
  file: string;
  format: RecordingFormat;
  durationSeconds: number;
  /** the recording's bytes, and how many of them were kept */
  totalBytes: number;
  keptBytes: number;
  units: number;
}

/**
 * Makes `input` (a webm or mp4 as a MediaRecorder wrote it, possibly cut anywhere) playable in `dir`: keeps what
 * `findCut` keeps and remuxes it with ffmpeg (`-c copy`), which writes the duration and the seek index (webm Cues, an
 * mp4's moov sample tables). Throws UnusableRecordingError when nothing is left to keep; ffmpeg's own errors as they
 * come (a full disk is worth a retry).
 */
export async function repairRecording(input: string, dir: string): Promise<RepairedRecording> {
  const bytes = await readFile(input);
  const cut = findCut(bytes);
  if (!cut.usable) throw new UnusableRecordingError(cut.reason);
  const kept = keptBytes(bytes, cut);
  let source = input;
  if (kept !== bytes) await writeFile((source = join(dir, `kept.${cut.format}`)), kept);
  const file = join(dir, `answer.${cut.format}`);
  await remux(source, file);
  const durationSeconds = await probeDuration(file);
  if (durationSeconds === null) throw new UnusableRecordingError(`the remuxed ${cut.format} has no duration (${cut.keep} bytes kept)`);
  return { file, format: cut.format, durationSeconds, totalBytes: bytes.length, keptBytes: cut.keep, units: cut.units };
}
