// Recordings cut at arbitrary bytes (issue 22, decisions.md "Tests that can fail": a truncated take keeps the
// recording up to one cluster or fragment before the cut): MediaRecorder-shaped fixtures (webm with clusters of
// unknown size as Chrome writes them, with sized ones as Firefox does, and Safari's fragmented mp4;
// tests/fixtures/make-recorder-fixtures.mjs) are cut every ~7% and right inside their headers, repaired, and
// checked with ffprobe and ffmpeg: a finite duration no longer than the original and at most one cluster or
// fragment short of what was before the cut, a file that decodes without an error and has a seek index, or a
// refusal that says why when nothing playable is left.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { findCut, keptBytes, repairRecording, UnusableRecordingError } from "../../worker/src/repair";
import { decodesCleanly, durationOf, FIXTURES, hasSeekIndex, packetsOf, timeBefore, unitSeconds } from "./media-fixtures";

const work = mkdtempSync(join(tmpdir(), "screenroom-repair-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Byte offsets to cut at: about every 7% of the file, each moved by a few bytes so none falls on a boundary by design. */
function everySevenPercent(length: number): number[] {
  return Array.from({ length: 14 }, (_, i) => Math.floor((length * (i + 1) * 7) / 100) + 13 * i + 5);
}

const timings: number[] = [];
const longest = { seconds: 0, bytes: 0 };

/** Cuts `fixture` at `cut` bytes and repairs it; the repaired file, or the refusal's reason. */
async function cutAndRepair(fixture: string, cut: number) {
  const bytes = readFileSync(join(FIXTURES, fixture));
  const dir = mkdtempSync(join(work, "cut-"));
  const input = join(dir, "original");
  writeFileSync(input, bytes.subarray(0, cut));
  const started = performance.now();
  try {
    const repaired = await repairRecording(input, dir);
    timings.push(performance.now() - started);
    if (repaired.keptBytes < bytes.length && repaired.durationSeconds > longest.seconds) Object.assign(longest, { seconds: repaired.durationSeconds, bytes: repaired.keptBytes });
    return { repaired, reason: null };
  } catch (err) {
    if (!(err instanceof UnusableRecordingError)) throw err;
    return { repaired: null, reason: err.message };
  }
}

const RECORDINGS = [
  { fixture: "mediarecorder-unsized.webm", shape: "webm, clusters of unknown size (Chrome)" },
  { fixture: "mediarecorder-sized.webm", shape: "webm, sized clusters (Firefox)" },
  { fixture: "mediarecorder-fragmented.mp4", shape: "fragmented mp4 (Safari)" },
];

describe.each(RECORDINGS)("a recording cut anywhere: $shape", ({ fixture }) => {
  const bytes = readFileSync(join(FIXTURES, fixture));
  const packets = packetsOf(join(FIXTURES, fixture));
  const whole = Math.max(...packets.map((p) => p.endTime));
  const unit = unitSeconds(packets);
  const TOLERANCE = 0.15; // an audio packet's length and the encoder's priming either side

  it("passes through whole, with the duration of every packet", async () => {
    expect(findCut(bytes)).toMatchObject({ usable: true, keep: bytes.length });
    const { repaired } = await cutAndRepair(fixture, bytes.length);
    expect(repaired!.keptBytes).toBe(bytes.length);
    expect(Math.abs(repaired!.durationSeconds - whole)).toBeLessThan(TOLERANCE);
    expect(decodesCleanly(repaired!.file)).toBe("");
    expect(hasSeekIndex(repaired!.file)).toBe(true);
  });

  it.each(everySevenPercent(bytes.length).filter((c) => c < bytes.length))("cut at byte %i keeps what was recorded up to one unit before the cut", async (cut) => {
    const before = timeBefore(packets, cut);
    const { repaired, reason } = await cutAndRepair(fixture, cut);
    if (!repaired) {
      // nothing kept: allowed only while the first cluster or fragment was still incomplete
      expect(before).toBeLessThanOrEqual(unit + TOLERANCE);
      expect(reason).toMatch(/no complete (Cluster|fragment)/);
      return;
    }
    expect(Number.isFinite(repaired.durationSeconds)).toBe(true);
    expect(repaired.durationSeconds).toBeGreaterThan(0);
    expect(repaired.durationSeconds).toBeLessThanOrEqual(whole + TOLERANCE);
    expect(repaired.durationSeconds).toBeLessThanOrEqual(before + TOLERANCE);
    expect(repaired.durationSeconds).toBeGreaterThanOrEqual(before - unit - TOLERANCE);
    expect(durationOf(repaired.file)).toBeCloseTo(repaired.durationSeconds, 3);
    expect(decodesCleanly(repaired.file)).toBe("");
    expect(hasSeekIndex(repaired.file)).toBe(true);
  });
});

describe("a cut that leaves nothing playable is refused, saying where it fell", () => {
  const webm = readFileSync(join(FIXTURES, "mediarecorder-unsized.webm"));
  const mp4 = readFileSync(join(FIXTURES, "mediarecorder-fragmented.mp4"));
  const at = (bytes: Buffer, marker: number[] | string) => bytes.indexOf(Buffer.from(marker as string));
  // the last mention in the first 1000 bytes: the SeekHead before it names the element's ID too
  const tracks = webm.subarray(0, 1000).lastIndexOf(Buffer.from([0x16, 0x54, 0xae, 0x6b]));
  const CLUSTER = [0x1f, 0x43, 0xb6, 0x75];

  it.each([
    ["webm, inside the EBML header", webm, 10, /inside the EBML header/],
    ["webm, inside the Segment's header", webm, 40, /before the Segment/],
    ["webm, inside Tracks", webm, tracks + 30, /no track list .*inside the Tracks/],
    ["webm, inside the first Cluster", webm, at(webm, CLUSTER) + 500, /no complete Cluster .*inside the first Cluster/],
    ["mp4, inside ftyp", mp4, 20, /no ftyp box/],
    ["mp4, inside moov", mp4, at(mp4, "moov") + 300, /no moov box.*inside the moov box/],
    ["mp4, inside the first moof", mp4, at(mp4, "moof") + 50, /no complete fragment/],
    ["mp4, inside the first mdat", mp4, at(mp4, "mdat") + 1000, /no complete fragment .*inside the mdat box/],
    ["neither format", Buffer.from("not a recording at all"), 22, /neither a webm nor an mp4/],
  ])("%s", async (_, bytes, cut, reason) => {
    const result = findCut(bytes.subarray(0, cut));
    expect(result.usable).toBe(false);
    expect(result.usable ? "" : result.reason).toMatch(reason);
    const dir = mkdtempSync(join(work, "refused-"));
    writeFileSync(join(dir, "original"), bytes.subarray(0, cut));
    await expect(repairRecording(join(dir, "original"), dir)).rejects.toThrow(UnusableRecordingError);
  });
});

describe("cuts at the edges of a cluster", () => {
  const webm = readFileSync(join(FIXTURES, "mediarecorder-unsized.webm"));
  const CLUSTER = Buffer.from([0x1f, 0x43, 0xb6, 0x75]);
  const second = webm.indexOf(CLUSTER, webm.indexOf(CLUSTER) + 4);

  it("keeps a cluster of unknown size that ends exactly at the cut, or where the next one's ID begins", () => {
    for (const cut of [second, second + 1, second + 3, second + 11]) {
      expect(findCut(webm.subarray(0, cut)), `cut at ${cut}`).toMatchObject({ usable: true, keep: second, units: 1 });
    }
    // the next cluster's header is whole but none of its blocks: it is not complete
    expect(findCut(webm.subarray(0, second + 20))).toMatchObject({ usable: true, keep: second, units: 1 });
  });

  it("rewrites a sized Segment's size to what it keeps (answer.webm: one cluster, then Cues)", () => {
    const answer = readFileSync(join(FIXTURES, "answer.webm"));
    const cues = answer.lastIndexOf(Buffer.from([0x1c, 0x53, 0xbb, 0x6b])); // the SeekHead names it first
    const cut = findCut(answer.subarray(0, cues + 6));
    expect(cut).toMatchObject({ usable: true, keep: cues, units: 1 });
    if (!cut.usable) return;
    const kept = keptBytes(answer.subarray(0, cues + 6), cut);
    // the Segment header at byte 36: ID (4 bytes), then an 8-byte size, then its data at byte 48
    expect(Buffer.from(kept.subarray(40, 48)).readBigUInt64BE() & 0x00ffffffffffffffn).toBe(BigInt(cues - 48));
    // the patch went into a copy: the file's own bytes still read whole
    expect(findCut(answer)).toEqual({ usable: true, format: "webm", keep: answer.length, units: 1 });
  });
});

afterAll(() => {
  if (timings.length) {
    console.log(
      `repaired ${timings.length} recordings: longest cut recording kept ${longest.seconds.toFixed(2)} s (${longest.bytes} bytes); ` +
        `repair (read, cut, ffmpeg remux, ffprobe) median ${median(timings).toFixed(0)} ms, max ${Math.max(...timings).toFixed(0)} ms`,
    );
  }
});

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}
