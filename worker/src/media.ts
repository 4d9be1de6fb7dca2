// ffmpeg and ffprobe: a seekable copy of a recording, its duration, and the 16 kHz mono audio transcribers want.
import { spawn } from "node:child_process";

export function run(command: string, args: string[]): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.once("error", reject);
    child.once("close", (code) => {
      if (code === 0) resolve({ stdout, stderr });
      else reject(new Error(`${command} exited with ${code}: ${stderr.trim().split("\n").slice(-3).join(" | ")}`));
    });
  });
}

/**
 * Rewrites the container without re-encoding, in the format `output`'s extension names. MediaRecorder writes webm
 * as a live stream: no duration and no Cues (seek index), so browsers show "Infinity" and cannot seek; ffmpeg's
 * muxer writes both. Safari's fragmented mp4 becomes a plain one whose moov (duration and sample index) comes first
 * (`+faststart`), so a browser can seek before it has the whole file.
 */
export async function remux(input: string, output: string): Promise<void> {
  const mp4 = /\.mp4$/i.test(output) ? ["-movflags", "+faststart"] : [];
  await run("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", "-i", input, "-map", "0", "-c", "copy", ...mp4, output]);
}

/** The container's duration in seconds, or null when it has none (a live-stream webm). */
export async function probeDuration(file: string): Promise<number | null> {
  const { stdout } = await run("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "json", file]);
  const parsed = JSON.parse(stdout) as { format?: { duration?: string } };
  const value = Number(parsed.format?.duration);
  return Number.isFinite(value) && value > 0 ? value : null;
}

export async function hasAudio(file: string): Promise<boolean> {
  const { stdout } = await run("ffprobe", ["-v", "error", "-select_streams", "a", "-show_entries", "stream=index", "-of", "csv=p=0", file]);
  return stdout.trim() !== "";
}

/** 16 kHz, mono, signed 16-bit PCM wav: what pocketsphinx needs and what Whisper endpoints take happily. */
export async function extractAudio(input: string, output: string): Promise<void> {
  await run("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", "-i", input, "-vn", "-ac", "1", "-ar", "16000", "-c:a", "pcm_s16le", "-f", "wav", output]);
}
