// Recordings shaped like MediaRecorder's: VP9 + Opus webm written as a live stream (no duration, no Cues),
// with a LibriVox clip from Debian's pocketsphinx-testdata as the speech.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const LIBRIVOX = "/usr/share/pocketsphinx/test/data/librivox";

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
  const out = join(mkdtempSync(join(tmpdir(), "screenroom-rec-")), "recording.webm");
  const args = [
    "-loglevel", "error", "-y",
    "-f", "lavfi", "-i", "testsrc=size=320x240:rate=15",
    "-i", join(LIBRIVOX, `${clip}.wav`),
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
