import { Box, Flex, Text } from '@radix-ui/themes';
import { useRef, useState } from 'react';

import { formatTime, segmentAt, TimedTranscript, type TranscriptSegment } from '@/components/timed-transcript';

import { apiUrl, type SharedVideoAnswer } from '../api/get-shared-review';

/**
 * A video answer on the shared page: the player streams the file through the link (the server's streaming route,
 * with Range, so it seeks), and the transcript below; once the media worker stored it with times, each segment is a
 * button that plays the video from there, the one being played marked (aria-current).
 */
export function SharedVideoAnswerView({ answer }: { answer: SharedVideoAnswer }) {
  const ref = useRef<HTMLVideoElement>(null);
  const [time, setTime] = useState(0);
  const segments = answer.transcriptSegments?.length ? answer.transcriptSegments : null;
  const active = segments ? segmentAt(segments, time) : -1;

  function seek(segment: TranscriptSegment) {
    const video = ref.current;
    if (!video) return;
    video.currentTime = segment.start;
    setTime(segment.start);
    void video.play().catch(() => undefined);
  }

  return (
    <Flex direction="column" gap="2">
      <video
        ref={ref}
        controls
        preload="metadata"
        src={apiUrl(answer.url)}
        aria-label="Answer video"
        onTimeUpdate={(event) => setTime(event.currentTarget.currentTime)}
        onSeeked={(event) => setTime(event.currentTarget.currentTime)}
        className="shared-video"
      />
      {answer.durationSeconds > 0 && (
        <Text size="1" color="gray">
          Duration {formatTime(answer.durationSeconds)}
        </Text>
      )}
      <Box>
        <Text as="div" size="2" weight="bold" mb="1">
          Transcript
        </Text>
        <TimedTranscript
          status={answer.transcriptStatus}
          transcript={answer.transcript}
          segments={segments}
          activeIndex={active}
          onSeek={seek}
          classPrefix="shared"
        />
      </Box>
    </Flex>
  );
}
