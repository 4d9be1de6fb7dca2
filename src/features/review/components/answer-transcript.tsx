import { Badge, Button, Flex, Text } from '@radix-ui/themes';

import { TimedTranscript, type TranscriptSegment } from '@/components/timed-transcript';
import type { VideoAnswersResponse } from '@/lib/pocketbase-types';

import { useRetryTranscript } from '../api/retry-transcript';

import './review.css';

export { formatTime, segmentAt } from '@/components/timed-transcript';

type AnswerTranscriptProps = {
  video: VideoAnswersResponse;
  /** The reviewed candidate: where the answer asked for again is put back in the cached review. */
  candidateId: string;
  /** The timed transcript, or null: the plain `transcript` text is shown (answers transcribed before issue 15). */
  segments: TranscriptSegment[] | null;
  /** The index of the segment being played, or -1. */
  activeIndex: number;
  onSeek: (segment: TranscriptSegment) => void;
};

/**
 * Why a transcript failed, in the manager's words, from the reason the server stored (video_answers.transcriptFailure);
 * the worker's own message (transcriptError) is the operator's, and hidden.
 */
export function transcriptFailureText(failure: string | undefined): string {
  switch (failure) {
    case 'timed_out':
      return 'It timed out: the server or the transcription service took too long to answer.';
    case 'unreadable_recording':
      return 'The recording could not be read.';
    case 'transcription_failed':
      return 'The transcription service could not transcribe this recording.';
    case 'processing_failed':
      return 'The recording could not be prepared for transcription.';
    case 'worker_stopped':
      return 'The transcription was interrupted each time it was tried.';
    default:
      return 'The transcription did not succeed.';
  }
}

/** The review's transcript of a video answer (src/components/timed-transcript.tsx), in the review's styles. */
export function AnswerTranscript({ video, candidateId, segments, activeIndex, onSeek }: AnswerTranscriptProps) {
  if (video.transcriptStatus === 'failed') return <FailedTranscript video={video} candidateId={candidateId} />;
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

/** A failed transcript: why, and 'Try again' (the worker makes it again, as for a new answer). */
function FailedTranscript({ video, candidateId }: { video: VideoAnswersResponse; candidateId: string }) {
  const retry = useRetryTranscript(candidateId);
  const tryAgain = () => retry.mutate(video.id);
  return (
    <Flex direction="column" gap="2" align="start" data-testid="transcript">
      <Badge color="red">Transcript unavailable</Badge>
      <Text as="p" size="2" color="gray">
        {transcriptFailureText(video.transcriptFailure)}
      </Text>
      <Button type="button" size="1" variant="soft" loading={retry.isPending} onClick={tryAgain}>
        Try again
      </Button>
    </Flex>
  );
}
