// Issue 23, "the server takes what real browsers make": every container and codec the three engines record is
// stored as an answer. Chromium and Firefox record WebM (VP8, VP9 or AV1 video with Opus audio); Safari on macOS
// and iOS records MP4 (fragmented, with its own brands; QuickTime-flavoured files). The fixtures are made here with
// Debian's ffmpeg (no downloaded samples); a file that is not a recording is still refused.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RecordModel } from "pocketbase";
import { beforeAll, describe, expect, it } from "vitest";
import { MediaWorker } from "../worker/src/worker";
import { asCandidate, errorOf, newCandidateOf, postAnswer, randomId, world } from "./helpers";
import { admin } from "./support";
import { decodesCleanly, durationOf } from "./worker/media-fixtures";
import { downloadStored, workerConfig } from "./worker/support";

let w: Awaited<ReturnType<typeof world>>;
const dir = mkdtempSync(join(tmpdir(), "screenroom-formats-"));

beforeAll(async () => {
  w = await world("formats");
});

const SOURCE = ["-f", "lavfi", "-i", "testsrc=duration=1:size=320x240:rate=15", "-f", "lavfi", "-i", "sine=duration=1:frequency=440"];

/** A one-second recording made by ffmpeg with `args` (codecs, muxer) into `name`. */
function make(name: string, args: string[]): File {
  const path = join(dir, name);
  execFileSync("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", ...SOURCE, "-shortest", ...args, path]);
  const type = name.endsWith(".webm") ? "video/webm" : "video/mp4";
  // the browser names the file answer.webm or answer.mp4 whatever the flavour (the SPA's fileExtensionOf)
  return new File([readFileSync(path)], type === "video/webm" ? "answer.webm" : "answer.mp4", { type });
}

const FORMATS: [string, string, string[], string][] = [
  ["Chromium: VP9 + Opus WebM", "vp9.webm", ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-c:a", "libopus"], "video/webm"],
  ["Firefox: VP8 + Opus WebM", "vp8.webm", ["-c:v", "libvpx", "-deadline", "realtime", "-c:a", "libopus"], "video/webm"],
  ["Chromium: AV1 + Opus WebM", "av1.webm", ["-c:v", "libsvtav1", "-preset", "12", "-c:a", "libopus"], "video/webm"],
  [
    "Safari (macOS): fragmented MP4, H.264 + AAC, iso5 brand",
    "safari.mp4",
    ["-c:v", "libx264", "-c:a", "aac", "-brand", "iso5", "-movflags", "frag_keyframe+empty_moov+default_base_moof"],
    "video/mp4",
  ],
  ["Safari (iOS): QuickTime-flavoured MP4, H.264 + AAC", "ios.mov", ["-c:v", "libx264", "-c:a", "aac", "-f", "mov"], "video/mp4"],
];

/** The media worker of the test's own (a transcriber that answers at once: this is about the file) processing one answer. */
async function processed(answerId: string): Promise<RecordModel> {
  const worker = new MediaWorker(workerConfig({ workerId: `formats-worker-${randomId()}` }), { transcriber: async () => ({ text: "heard", segments: null }), log: () => undefined });
  await worker.signIn();
  expect(await worker.process(answerId)).toEqual({ result: "done", retryInMs: 0 });
  return (await admin()).collection("video_answers").getOne(answerId);
}


describe("the recordings real browsers make", () => {
  it.each(FORMATS)("%s is stored as an answer, and the worker makes it play in the review", async (_what, name, args, mimeType) => {
    const candidate = await newCandidateOf(w, `format-${name}`);
    const res = await postAnswer(asCandidate(candidate), { id: randomId(), question: w.video.question.id, file: make(name, args) });
    expect(res.kind).toBe("video_answers");
    const stored = await (await admin()).collection("video_answers").getOne(res.record.id);
    expect(stored.mimeType).toBe(mimeType);

    const done = await processed(res.record.id);
    expect(done).toMatchObject({ transcriptStatus: "done", mimeType });
    expect(done.durationSeconds).toBeGreaterThan(0.5);
    const file = await downloadStored(done);
    expect(durationOf(file)).toBeGreaterThan(0.5);
    expect(decodesCleanly(file)).toBe("");
  });

  it("a file that is not a recording is refused, on the file field", async () => {
    const candidate = await newCandidateOf(w, "format-text");
    const notVideo = new File(["just some text, not a video"], "answer.webm", { type: "video/webm" });
    const err = await errorOf(() => postAnswer(asCandidate(candidate), { id: randomId(), question: w.video.question.id, file: notVideo }));
    expect(err.status).toBe(400);
    expect(Object.keys(err.response.data as object)).toContain("file");
  });
});
