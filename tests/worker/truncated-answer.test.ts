// Crash recovery end to end (issue 22) against a real PocketBase: a candidate's browser died mid-recording, so the
// server holds the take's parts up to an arbitrary byte; the candidate submits exactly those bytes as their answer
// (a staged answer), and the media worker stores a playable file in its place: the recording up to its last complete
// cluster or fragment, with its duration and a seek index. A take cut before anything playable is failed at once,
// saying why.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { RecordModel } from "pocketbase";
import { beforeAll, describe, expect, it } from "vitest";
import { MediaWorker } from "../../worker/src/worker";
import { asCandidate, newCandidateOf, putPart, randomId, world } from "../helpers";
import { admin } from "../support";
import { decodesCleanly, durationOf, FIXTURES, hasSeekIndex, packetsOf, timeBefore, unitSeconds } from "./media-fixtures";
import { downloadStored, workerConfig } from "./support";

let w: Awaited<ReturnType<typeof world>>;
beforeAll(async () => {
  w = await world("truncated");
});

/** A worker of the test's own, with a transcriber that answers at once (this is about the file), and its log. */
async function worker() {
  const lines: string[] = [];
  const instance = new MediaWorker(workerConfig({ workerId: `truncation-worker-${randomId()}` }), {
    transcriber: async () => ({ text: "recovered", segments: null }),
    log: (line) => void lines.push(line),
  });
  await instance.signIn();
  return { instance, lines };
}

/**
 * A new candidate records `fixture`, and the browser dies after `cut` bytes reached the server (in 8 KB parts, as
 * the app sends a chunk a second); on another visit the candidate submits what the server holds. The stored
 * video answer.
 */
async function stagedAnswerCutAt(fixture: string, cut: number, fileName: string): Promise<RecordModel> {
  const bytes = new Uint8Array(readFileSync(join(FIXTURES, fixture)));
  const pb = asCandidate(await newCandidateOf(w, "cut-take"));
  const id = randomId();
  for (let offset = 0; offset < cut; offset += 8192) {
    await putPart(pb, id, offset, bytes.slice(offset, Math.min(offset + 8192, cut)), w.video.question.id, { ms: String(Math.floor(offset / 10)) });
  }
  const res = await pb.send<{ record: RecordModel }>("/api/screenroom/answers", {
    method: "POST",
    body: { id, staged: true, size: cut, fileName, question: w.video.question.id },
  });
  expect(res.record.transcriptStatus).toBe("pending");
  return res.record;
}


describe("a take cut off mid-recording, submitted as the answer", () => {
  it.each([
    { fixture: "mediarecorder-unsized.webm", fileName: "answer.webm", shape: "a Chrome webm cut inside its 4th cluster" },
    { fixture: "mediarecorder-fragmented.mp4", fileName: "answer.mp4", shape: "a Safari mp4 cut inside its 4th fragment" },
  ])("$shape is stored playable, with its duration up to the last complete unit", async ({ fixture, fileName }) => {
    const original = join(FIXTURES, fixture);
    const packets = packetsOf(original);
    const cut = Math.floor(readFileSync(original).length * 0.7); // inside the 4th of 5 seconds in both
    const answer = await stagedAnswerCutAt(fixture, cut, fileName);

    const { instance, lines } = await worker();
    const started = Date.now();
    expect(await instance.process(answer.id)).toEqual({ result: "done", retryInMs: 0 });
    console.log(`${fixture} cut at byte ${cut}: processed in ${Date.now() - started} ms; ${lines.find((l) => /recording cut/.test(l))}`);
    expect(lines.some((l) => l.includes(`${answer.id}: recording cut at byte ${cut}; kept`))).toBe(true);

    const su = await admin();
    const record = await su.collection("video_answers").getOne(answer.id);
    expect(record).toMatchObject({ transcriptStatus: "done", transcript: "recovered", mimeType: fileName === "answer.mp4" ? "video/mp4" : "video/webm" });
    expect(record.file).not.toBe(answer.file);
    const before = timeBefore(packets, cut);
    expect(Number.isFinite(record.durationSeconds)).toBe(true);
    expect(record.durationSeconds).toBeGreaterThan(0);
    expect(record.durationSeconds).toBeLessThanOrEqual(before + 0.15);
    expect(record.durationSeconds).toBeGreaterThanOrEqual(before - unitSeconds(packets) - 0.15);

    const stored = await downloadStored(record);
    expect(durationOf(stored)).toBeCloseTo(record.durationSeconds as number, 2);
    expect(decodesCleanly(stored)).toBe("");
    expect(hasSeekIndex(stored)).toBe(true);
  });

  it("is failed at once, saying why, when the cut left no complete cluster (inside the track list)", async () => {
    const answer = await stagedAnswerCutAt("mediarecorder-unsized.webm", 300, "answer.webm");
    const { instance, lines } = await worker();
    expect(await instance.process(answer.id)).toEqual({ result: "failed", retryInMs: 0 });
    const su = await admin();
    const record = await su.collection("video_answers").getOne(answer.id);
    expect(record).toMatchObject({ transcriptStatus: "failed", transcriptAttempts: 1, transcriptClaimedBy: "", durationSeconds: 0, transcriptFailure: "unreadable_recording" });
    expect(record.transcriptError).toBe("Unusable recording: no track list (the file ends at byte 300, inside the Tracks)");
    expect(lines).toContain(`answer ${answer.id}: attempt 1 failed (${record.transcriptError}); giving up`);
    // the candidate's bytes are kept as they came, for a person to look at
    expect(record.file).toBe(answer.file);
  });
});
