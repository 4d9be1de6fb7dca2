// A transcript's timed segments (video_answers.transcriptSegments, issue 15): [{start, end, text}] in seconds with
// two decimals, ordered and not overlapping, so the review screen can seek the video to a segment and highlight the
// one being played. Pocketsphinx gives word times, grouped here into segments of a readable length; a
// Whisper-compatible endpoint gives segments of its own (verbose_json), which are only tidied.

export interface TranscriptSegment {
  start: number;
  end: number;
  text: string;
}

/** What a provider heard: the plain transcript, and its segments, or null when the provider gave no times. */
export interface Transcription {
  text: string;
  segments: TranscriptSegment[] | null;
}

export interface TimedWord {
  word: string;
  start: number;
  end: number;
}

export interface GroupingRule {
  /** silence between two words (seconds) that starts a new segment */
  pauseSeconds: number;
  /** words a segment holds at most */
  maxWords: number;
  /** a segment's length at most (seconds), unless one word alone is longer */
  maxSeconds: number;
}

/** About a line of subtitles: a new segment at a breath, else every 12 words or 8 seconds. */
export const GROUPING: GroupingRule = { pauseSeconds: 0.6, maxWords: 12, maxSeconds: 8 };

/** Seconds with two decimals. */
export function roundSeconds(seconds: number): number {
  return Math.round(seconds * 100) / 100;
}

/**
 * Groups spoken words (in order) into segments: a word starts a new segment when the silence since the previous
 * word is at least `pauseSeconds`, when the segment already has `maxWords` words, or when it would make the segment
 * longer than `maxSeconds`. Each segment runs from its first word's start to its last word's end, and its text is
 * its words joined by spaces, so the segments' texts joined are the words joined.
 */
export function groupWords(words: readonly TimedWord[], rule: GroupingRule = GROUPING): TranscriptSegment[] {
  const groups: TimedWord[][] = [];
  let current: TimedWord[] = [];
  for (const word of words) {
    const first = current[0];
    const last = current.at(-1);
    if (
      first &&
      last &&
      (word.start - last.end >= rule.pauseSeconds || current.length >= rule.maxWords || word.end - first.start > rule.maxSeconds)
    ) {
      groups.push(current);
      current = [];
    }
    current.push(word);
  }
  if (current.length) groups.push(current);
  return tidySegments(groups.map((group) => ({ start: group[0]!.start, end: group.at(-1)!.end, text: group.map((w) => w.word).join(" ") })));
}

/**
 * A Whisper-compatible endpoint's `segments` (verbose_json: [{id, start, end, text, ...}]) as stored segments; null
 * when the answer has none (plain json), so the transcript stays plain text. Entries without finite times or with
 * only whitespace are left out.
 */
export function segmentsFromWhisper(segments: unknown): TranscriptSegment[] | null {
  if (!Array.isArray(segments)) return null;
  const out: TranscriptSegment[] = [];
  for (const entry of segments as unknown[]) {
    if (!entry || typeof entry !== "object") continue;
    const { start, end, text } = entry as { start?: unknown; end?: unknown; text?: unknown };
    if (typeof start !== "number" || typeof end !== "number" || !Number.isFinite(start) || !Number.isFinite(end)) continue;
    const words = typeof text === "string" ? text.replace(/\s+/g, " ").trim() : "";
    if (words) out.push({ start, end, text: words });
  }
  return tidySegments(out);
}

/**
 * Segments made safe to seek by: two decimals, none before 0, none ending before it starts, none starting before the
 * previous one ended (a provider's slightly overlapping times), and none past `durationSeconds` when it is known
 * (Whisper may put the last segment's end beyond the audio).
 */
export function tidySegments(segments: readonly TranscriptSegment[], durationSeconds?: number | null): TranscriptSegment[] {
  const limit = durationSeconds && durationSeconds > 0 ? Math.floor(durationSeconds * 100) / 100 : Infinity;
  let previousEnd = 0;
  return segments.map(({ start, end, text }) => {
    const s = Math.min(Math.max(roundSeconds(start), previousEnd), limit);
    const e = Math.min(Math.max(roundSeconds(end), s), limit);
    previousEnd = e;
    return { start: s, end: e, text };
  });
}
