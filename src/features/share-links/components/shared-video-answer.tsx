import { Badge, Box, Flex, Text } from '@radix-ui/themes';
import { useRef, useState } from 'react';

import { apiUrl, type SharedVideoAnswer, type TranscriptSegment } from '../api/get-shared-review';

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
        <Transcript answer={answer} segments={segments} active={active} onSeek={seek} />
      </Box>
    </Flex>
  );
}

function Transcript({
  answer,
  segments,
  active,
  onSeek,
}: {
  answer: SharedVideoAnswer;
  segments: TranscriptSegment[] | null;
  active: number;
  onSeek: (segment: TranscriptSegment) => void;
}) {
  if (answer.transcriptStatus === 'done') {
    if (segments) {
      return (
        <ol className="shared-segments" aria-label="Transcript segments" data-testid="transcript">
          {segments.map((segment, index) => (
            <li key={`${segment.start}-${index}`}>
              <button
                type="button"
                className="shared-segment"
                aria-current={index === active ? 'time' : undefined}
                onClick={() => onSeek(segment)}
              >
                <span className="shared-segment-time">{formatTime(segment.start)}</span>{' '}
                <span>{segment.text}</span>
              </button>
            </li>
          ))}
        </ol>
      );
    }
    return answer.transcript ? (
      <Text as="p" size="2" data-testid="transcript">
        {answer.transcript}
      </Text>
    ) : (
      <Text as="p" size="2" color="gray" data-testid="transcript">
        No speech detected
      </Text>
    );
  }
  if (answer.transcriptStatus === 'failed') {
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
