import { TimedTranscript, type TranscriptSegment } from '@/components/timed-transcript';
import type { VideoAnswersResponse } from '@/lib/pocketbase-types';

import './review.css';

export { formatTime, segmentAt } from '@/components/timed-transcript';

type AnswerTranscriptProps = {
  video: VideoAnswersResponse;
  /** The timed transcript, or null: the plain `transcript` text is shown (answers transcribed before issue 15). */
  segments: TranscriptSegment[] | null;
  /** The index of the segment being played, or -1. */
  activeIndex: number;
  onSeek: (segment: TranscriptSegment) => void;
};

/** The review's transcript of a video answer (src/components/timed-transcript.tsx), in the review's styles. */
export function AnswerTranscript({ video, segments, activeIndex, onSeek }: AnswerTranscriptProps) {
  return (
    <TimedTranscript
      status={video.transcriptStatus ?? ''}
      transcript={video.transcript ?? ''}
      segments={segments}
      activeIndex={activeIndex}
      onSeek={onSeek}
      classPrefix="review"
    />
  );
}
