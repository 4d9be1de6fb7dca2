import { Badge, Text } from '@radix-ui/themes';

/** One stretch of a transcript, in seconds from the start of the recording (the media worker's transcriptSegments). */
export type TranscriptSegment = { start: number; end: number; text: string };

type TimedTranscriptProps = {
  /** The media worker's state of the transcript: '' or 'pending', 'done', 'failed', 'language_unsupported'. */
  status: string;
  /** The plain text (answers transcribed before timed segments existed show only this). */
  transcript: string;
  /** The timed transcript, or null: the plain text is shown. */
  segments: readonly TranscriptSegment[] | null;
  /** The index of the segment being played, or -1. */
  activeIndex: number;
  onSeek: (segment: TranscriptSegment) => void;
  /** The classes' prefix: `{prefix}-segments`, `{prefix}-segment`, `{prefix}-segment-time` (each page's stylesheet). */
  classPrefix: string;
};

/** Where a transcript would be when the built-in engine (English only) met an answer in another language. */
export const LANGUAGE_UNSUPPORTED_TEXT = 'Transcripts in this language need the Whisper-compatible endpoint';

/**
 * A video answer's transcript, for the manager's review and the shared page alike: once the worker stored it with
 * times, each segment is a button that plays the video from there, the one being played marked (aria-current);
 * otherwise the plain text, 'No speech detected', or the worker's state ('Transcript pending', 'Transcript
 * unavailable', or that the job's language needs the Whisper-compatible endpoint).
 */
export function TimedTranscript({ status, transcript, segments, activeIndex, onSeek, classPrefix }: TimedTranscriptProps) {
  if (status === 'done') {
    if (segments) {
      return (
        <ol className={`${classPrefix}-segments`} aria-label="Transcript segments" data-testid="transcript">
          {segments.map((segment, index) => (
            <li key={`${segment.start}-${index}`}>
              <button
                type="button"
                className={`${classPrefix}-segment`}
                aria-current={index === activeIndex ? 'time' : undefined}
                onClick={() => onSeek(segment)}
              >
                <span className={`${classPrefix}-segment-time`}>{formatTime(segment.start)}</span>{' '}
                <span>{segment.text}</span>
              </button>
            </li>
          ))}
        </ol>
      );
    }
    return transcript ? (
      <Text as="p" size="2" data-testid="transcript">
        {transcript}
      </Text>
    ) : (
      <Text as="p" size="2" color="gray" data-testid="transcript">
        No speech detected
      </Text>
    );
  }
  if (status === 'language_unsupported') {
    return (
      <Text as="p" size="2" color="gray" data-testid="transcript">
        {LANGUAGE_UNSUPPORTED_TEXT}
      </Text>
    );
  }
  if (status === 'failed') {
    return (
      <Badge color="red" data-testid="transcript">
        Transcript unavailable
      </Badge>
    );
  }
  return (
    <Badge color="gray" data-testid="transcript">
      Transcript pending
    </Badge>
  );
}

/** The segment playing at `time` (seconds): the last one started by then and not yet ended, or -1. */
export function segmentAt(segments: readonly TranscriptSegment[], time: number): number {
  for (let index = segments.length - 1; index >= 0; index -= 1) {
    const segment = segments[index]!;
    if (segment.start <= time) return time < segment.end ? index : -1;
  }
  return -1;
}

/** 0:07, 1:05: as the player shows it. */
export function formatTime(seconds: number): string {
  const whole = Math.floor(seconds);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}
