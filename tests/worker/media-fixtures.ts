// Recordings shaped like MediaRecorder's: VP9 + Opus webm written as a live stream (no duration, no Cues),
// with a LibriVox clip from Debian's pocketsphinx-testdata as the speech; and what ffprobe and ffmpeg say of a
// recording (its packets, duration, whether it decodes and has a seek index), for the truncation tests.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const LIBRIVOX = "/usr/share/pocketsphinx/test/data/librivox";
/** tests/fixtures: the MediaRecorder-shaped recordings of make-recorder-fixtures.mjs among them. */
export const FIXTURES = join(import.meta.dirname, "..", "fixtures");

/** The reference transcription of a clip (the package's `transcription` file), e.g. "...-0870". */
export function referenceOf(clip: string): string {
  const line = readFileSync(join(LIBRIVOX, "transcription"), "utf8")
    .split("\n")
    .find((l) => l.includes(`(${clip})`));
  if (!line) throw new Error(`no reference for ${clip}`);
  return line.replace(/<\/?s>/g, "").replace(/\(.*\)/, "").trim();
}

/** Writes a live-stream webm (as MediaRecorder does) of the clip to a temp file and returns its path. */
export function recordingOf(clip: string): string {
  return recordingOfAudio(join(LIBRIVOX, `${clip}.wav`));
}

/**
 * A recording of clips with `silenceSeconds` of silence between them: each clip's words are spoken at a known time
 * (the first from 0 s, the next from the first's duration plus the silence).
 */
export function recordingOfClips(clips: string[], silenceSeconds: number): string {
  const wav = join(mkdtempSync(join(tmpdir(), "screenroom-clips-")), "clips.wav");
  const inputs = clips.flatMap((clip, i) => [...(i ? ["-f", "lavfi", "-t", String(silenceSeconds), "-i", "anullsrc=r=16000:cl=mono"] : []), "-i", join(LIBRIVOX, `${clip}.wav`)]);
  const count = clips.length * 2 - 1;
  const filter = `${Array.from({ length: count }, (_, i) => `[${i}:a]`).join("")}concat=n=${count}:v=0:a=1`;
  execFileSync("ffmpeg", ["-loglevel", "error", "-y", ...inputs, "-filter_complex", filter, "-ar", "16000", "-ac", "1", "-c:a", "pcm_s16le", wav]);
  return recordingOfAudio(wav);
}

/** A live-stream webm (as MediaRecorder writes) with a test picture and the audio file's sound. */
function recordingOfAudio(audio: string): string {
  const out = join(mkdtempSync(join(tmpdir(), "screenroom-rec-")), "recording.webm");
  const args = [
    "-loglevel", "error", "-y",
    "-f", "lavfi", "-i", "testsrc=size=320x240:rate=15",
    "-i", audio,
    "-shortest",
    "-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-b:v", "200k",
    "-c:a", "libopus", "-ar", "48000",
    "-live", "1", "-f", "webm", "pipe:1",
  ];
  const r = spawnSync("bash", ["-c", `ffmpeg ${args.map((a) => `'${a}'`).join(" ")} > '${out}'`], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`ffmpeg failed: ${r.stderr}`);
  return out;
}

/** Word error rate: word-level edit distance over the reference's length. */
export function wordErrorRate(reference: string, hypothesis: string): number {
  const words = (s: string) => s.toLowerCase().replace(/[^a-z' ]+/g, " ").split(/\s+/).filter(Boolean);
  const ref = words(reference);
  const hyp = words(hypothesis);
  let prev = Array.from({ length: hyp.length + 1 }, (_, j) => j);
  for (let i = 1; i <= ref.length; i++) {
    const row = [i];
    for (let j = 1; j <= hyp.length; j++) {
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (ref[i - 1] === hyp[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return ref.length ? prev[hyp.length]! / ref.length : 0;
}

export interface Packet {
  video: boolean;
  keyframe: boolean;
  /** where the packet's payload starts in the file and the byte after it, and when its presentation ends */
  startByte: number;
  endByte: number;
  endTime: number;
}

/** Every packet of a file as ffprobe demuxes it. */
export function packetsOf(file: string): Packet[] {
  const out = execFileSync("ffprobe", ["-v", "error", "-show_entries", "packet=stream_index,pts_time,duration_time,pos,size,flags:stream=index,codec_type", "-of", "json", file], {
    encoding: "utf8",
    maxBuffer: 1 << 26,
  });
  const parsed = JSON.parse(out) as {
    streams: { index: number; codec_type: string }[];
    packets: { stream_index: number; pts_time: string; duration_time?: string; pos: string; size: string; flags: string }[];
  };
  const video = new Set(parsed.streams.filter((s) => s.codec_type === "video").map((s) => s.index));
  return parsed.packets.map((p) => ({
    video: video.has(p.stream_index),
    keyframe: p.flags.startsWith("K"),
    startByte: Number(p.pos),
    endByte: Number(p.pos) + Number(p.size),
    endTime: Number(p.pts_time) + Number(p.duration_time ?? 0),
  }));
}

/** The container's duration as ffprobe reads it (NaN when it has none). */
export function durationOf(file: string): number {
  return Number(execFileSync("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", file], { encoding: "utf8" }).trim());
}

/**
 * The most media time one cluster or fragment adds: each starts at a video keyframe, so the packets are grouped by
 * the keyframes' byte positions, and the largest step between one group's latest end and the next one's is taken.
 */
export function unitSeconds(packets: Packet[]): number {
  const starts = packets.filter((p) => p.video && p.keyframe).map((p) => p.startByte);
  const ends = starts.map((start, i) =>
    Math.max(0, ...packets.filter((p) => p.startByte >= start && p.startByte < (starts[i + 1] ?? Infinity)).map((p) => p.endTime)),
  );
  return Math.max(...ends.map((end, i) => end - Math.max(0, ...ends.slice(0, i))));
}

/** The media time recorded before byte `cut`: where the last packet wholly before it ends. */
export function timeBefore(packets: Packet[], cut: number): number {
  return Math.max(0, ...packets.filter((p) => p.endByte <= cut).map((p) => p.endTime));
}

/** ffmpeg's errors decoding the file from start to end: "" when there are none. */
export function decodesCleanly(file: string): string {
  const r = spawnSync("ffmpeg", ["-hide_banner", "-v", "error", "-i", file, "-f", "null", "-"], { encoding: "utf8" });
  return r.status === 0 ? r.stderr.trim() : `exit ${r.status}: ${r.stderr.trim()}`;
}

/** A seek index: webm Cues (ID 1C53BB6B), or a plain mp4 (no moof) whose moov comes before its mdat. */
export function hasSeekIndex(file: string): boolean {
  const bytes = readFileSync(file);
  if (bytes.readUInt32BE(0) === 0x1a45dfa3) return bytes.includes(Buffer.from([0x1c, 0x53, 0xbb, 0x6b]));
  return !bytes.includes("moof") && bytes.indexOf("moov") < bytes.indexOf("mdat");
}
