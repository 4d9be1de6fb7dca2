// What the repair of a cut recording keeps (repair.ts), as the webm and mp4 readers (repair-webm.ts, repair-mp4.ts) find it.

export type RecordingFormat = "webm" | "mp4";

/** What can be kept of a recording: its first `keep` bytes (with `patch` written over them), or why nothing. */
export type Cut =
  | {
      usable: true;
      format: RecordingFormat;
      keep: number;
      /** complete webm Clusters or mp4 fragments kept (a plain, unfragmented mp4 counts as 1) */
      units: number;
      /** bytes to write at `at` in the kept part: a webm Segment's size, shortened to what is kept */
      patch?: { at: number; bytes: Uint8Array };
    }
  | { usable: false; format: RecordingFormat | "unknown"; reason: string };
