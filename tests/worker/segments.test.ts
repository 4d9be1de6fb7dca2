// The worker's timed transcript (issue 15): pocketsphinx's word times read from its output and grouped into readable
// segments, and a Whisper-compatible endpoint's segments tidied, all in seconds with two decimals.
import { describe, expect, it } from "vitest";
import { groupWords, segmentsFromWhisper, tidySegments, type TimedWord } from "../../worker/src/segments";
import { parsePocketsphinx, spokenWord } from "../../worker/src/transcribe";

/** Words of one second each, `gap` seconds apart, from `from`. */
function evenWords(count: number, { from = 0, length = 0.3, gap = 0.1 } = {}): TimedWord[] {
  return Array.from({ length: count }, (_, i) => ({ word: `w${i + 1}`, start: from + i * (length + gap), end: from + i * (length + gap) + length }));
}

describe("grouping words into segments", () => {
  it("starts a new segment at a pause of 0.6 s or more, not at a shorter one", () => {
    const words: TimedWord[] = [
      { word: "he", start: 0.33, end: 0.45 },
      { word: "was", start: 0.45, end: 0.67 },
      { word: "not", start: 1.2, end: 1.5 }, // 0.53 s after "was"
      { word: "an", start: 2.1, end: 2.3 }, // 0.6 s after "not"
      { word: "ill", start: 2.31, end: 2.5 },
    ];
    expect(groupWords(words)).toEqual([
      { start: 0.33, end: 1.5, text: "he was not" },
      { start: 2.1, end: 2.5, text: "an ill" },
    ]);
  });

  it("holds at most 12 words in a segment", () => {
    const segments = groupWords(evenWords(30));
    expect(segments.map((s) => s.text.split(" ").length)).toEqual([12, 12, 6]);
    expect(segments[1]).toEqual({ start: 4.8, end: 9.5, text: "w13 w14 w15 w16 w17 w18 w19 w20 w21 w22 w23 w24" });
  });

  it("keeps a segment within 8 s, except a single word that is longer", () => {
    const slow = evenWords(6, { length: 1.5, gap: 0.2 }); // a word every 1.7 s: the fifth would end the first at 8.3 s
    expect(groupWords(slow)).toEqual([
      { start: 0, end: 6.6, text: "w1 w2 w3 w4" },
      { start: 6.8, end: 10, text: "w5 w6" },
    ]);
    const drawn: TimedWord[] = [
      { word: "sooo", start: 0.5, end: 9.2 },
      { word: "long", start: 9.3, end: 9.8 },
    ];
    expect(groupWords(drawn)).toEqual([
      { start: 0.5, end: 9.2, text: "sooo" },
      { start: 9.3, end: 9.8, text: "long" },
    ]);
  });

  it("gives ordered, non-overlapping segments in seconds with two decimals whose texts joined are the words", () => {
    const words = [...evenWords(5, { from: 0.153, length: 0.2371, gap: 0.0129 }), ...evenWords(3, { from: 4.004 })];
    const segments = groupWords(words);
    expect(segments.map((s) => s.text).join(" ")).toBe(words.map((w) => w.word).join(" "));
    for (const [i, s] of segments.entries()) {
      expect(s.end).toBeGreaterThanOrEqual(s.start);
      expect(Math.round(s.start * 100) / 100).toBe(s.start);
      expect(Math.round(s.end * 100) / 100).toBe(s.end);
      if (i > 0) expect(s.start).toBeGreaterThanOrEqual(segments[i - 1]!.end);
    }
    expect(segments[0]).toMatchObject({ start: 0.15, end: 1.39 });
  });

  it("has no segment for no words", () => {
    expect(groupWords([])).toEqual([]);
  });
});

// pocketsphinx_continuous -time yes on the LibriVox clip 0870, then 3 s of silence and the clip 0880 (shortened)
const POCKETSPHINX_OUTPUT = `and mr john guess what and then at leisure to consider how much
<s> 0.000 0.140 0.999400
and(2) 0.150 0.360 0.260057
mr 0.370 0.620 0.988762
john 0.630 1.000 0.929128
guess 1.010 1.330 0.671967
what 1.340 1.580 0.581373
and(2) 1.590 1.830 0.170673
then 1.840 2.110 0.539576
at 2.120 2.250 0.051112
leisure(2) 2.260 2.710 0.454575
to 2.720 2.890 0.458456
consider 2.900 3.440 0.999700
how 3.450 3.900 0.289458
<sil> 3.910 3.930 0.553348
much 3.940 4.320 0.971219
</s> 4.330 4.400 1.000000
he was not young man
<s> 9.990 10.090 0.999200
<sil> 10.100 10.320 0.577086
he 10.330 10.440 0.998401
was(2) 10.450 10.660 0.999500
[NOISE] 10.670 10.900 0.700000
not 10.910 11.090 0.997104
++BREATH++ 11.100 11.230 0.649437
young 12.180 12.440 0.874402
man 12.450 12.840 0.918411
</s> 12.850 13.080 1.000000
`;

describe("pocketsphinx's word times", () => {
  it("reads the transcript from its hypotheses and the spoken words with their times, fillers left out", () => {
    const { text, words } = parsePocketsphinx(POCKETSPHINX_OUTPUT);
    expect(text).toBe("and mr john guess what and then at leisure to consider how much he was not young man");
    expect(words.map((w) => w.word).join(" ")).toBe(text);
    // a word ends where its last 10 ms frame does
    expect(words.find((w) => w.word === "consider")).toEqual({ word: "consider", start: 2.9, end: expect.closeTo(3.45, 5) });
    expect(words.find((w) => w.word === "he")).toMatchObject({ start: 10.33 });
  });

  it("groups them: 12 words, then the rest of the first utterance, then the second after its silence", () => {
    const { words } = parsePocketsphinx(POCKETSPHINX_OUTPUT);
    expect(groupWords(words)).toEqual([
      { start: 0.15, end: 3.91, text: "and mr john guess what and then at leisure to consider how" },
      { start: 3.94, end: 4.33, text: "much" },
      { start: 10.33, end: 11.1, text: "he was not" },
      { start: 12.18, end: 12.85, text: "young man" },
    ]);
  });

  it("reads an empty hypothesis (silence) as no transcript and no words", () => {
    expect(parsePocketsphinx("\n<s> 0.000 0.500 1.000000\n<sil> 0.510 2.000 0.900000\n</s> 2.010 2.100 1.000000\n")).toEqual({ text: "", words: [] });
  });

  it("names alternate pronunciations by their word and skips fillers and silence markers", () => {
    expect(["<s>", "</s>", "<sil>", "[NOISE]", "[SPEECH]", "++BREATH++"].map(spokenWord)).toEqual([null, null, null, null, null, null]);
    expect(["to(2)", "leisure(3)", "s.", "don't"].map(spokenWord)).toEqual(["to", "leisure", "s.", "don't"]);
  });
});

describe("a Whisper-compatible endpoint's segments", () => {
  it("keeps start, end and trimmed text of verbose_json's segments, in seconds with two decimals", () => {
    const verbose = [
      { id: 0, seek: 0, start: 0.0, end: 3.2449, text: " He was not an", tokens: [1, 2], avg_logprob: -0.2, no_speech_prob: 0.01 },
      { id: 1, seek: 0, start: 3.2449, end: 6.5, text: " ill disposed\n young man. " },
    ];
    expect(segmentsFromWhisper(verbose)).toEqual([
      { start: 0, end: 3.24, text: "He was not an" },
      { start: 3.24, end: 6.5, text: "ill disposed young man." },
    ]);
  });

  it("has no segments when the answer has none (plain json), and leaves out unusable entries", () => {
    expect(segmentsFromWhisper(undefined)).toBeNull();
    expect(segmentsFromWhisper("0-3: hello")).toBeNull();
    expect(segmentsFromWhisper([{ start: 0, end: 1, text: "  " }, { start: "1", end: 2, text: "x" }, null, { start: 2, end: 3, text: "kept" }])).toEqual([
      { start: 2, end: 3, text: "kept" },
    ]);
  });

  it("never lets a segment start before the previous one ended nor end past the recording", () => {
    const overlapping = [
      { start: 0, end: 2.5, text: "a" },
      { start: 2.4, end: 4, text: "b" },
      { start: 4, end: 30, text: "c" }, // Whisper pads its last 30 s window
    ];
    expect(tidySegments(overlapping, 7.125)).toEqual([
      { start: 0, end: 2.5, text: "a" },
      { start: 2.5, end: 4, text: "b" },
      { start: 4, end: 7.12, text: "c" },
    ]);
  });
});
