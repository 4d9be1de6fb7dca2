// The fake camera and microphone Chromium plays in e2e tests: a test-pattern video (y4m) and, for the
// microphone, a LibriVox clip from Debian's pocketsphinx-testdata (real speech, so transcripts have
// something to find), made with ffmpeg once into .cache/media.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { root } from "./pocketbase.mjs";

export const mediaDir = join(root, ".cache", "media");
export const fakeVideo = join(mediaDir, "fake-camera.y4m");
export const fakeAudio = join(mediaDir, "fake-microphone.wav");
/** The clip the fake microphone plays, and its reference transcription (pocketsphinx-testdata). */
export const librivoxDir = "/usr/share/pocketsphinx/test/data/librivox";
export const microphoneClip = join(librivoxDir, "sense_and_sensibility_01_austen_64kb-0870.wav");

export function ensureFakeMedia() {
  mkdirSync(mediaDir, { recursive: true });
  const run = (args) => {
    const r = spawnSync("ffmpeg", ["-loglevel", "error", "-y", ...args], { stdio: "inherit" });
    if (r.status !== 0) throw new Error(`ffmpeg ${args.join(" ")} failed`);
  };
  if (!existsSync(fakeVideo)) {
    run(["-f", "lavfi", "-i", "testsrc=size=320x240:rate=15", "-t", "4", "-pix_fmt", "yuv420p", fakeVideo]);
  }
  if (!existsSync(fakeAudio)) {
    if (existsSync(microphoneClip)) run(["-i", microphoneClip, "-ar", "48000", "-ac", "1", fakeAudio]);
    else run(["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000", "-t", "4", "-ac", "1", fakeAudio]);
  }
}
