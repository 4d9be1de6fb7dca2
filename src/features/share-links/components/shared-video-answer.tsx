import { Box, Flex, Text } from '@radix-ui/themes';
import { useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';

import { formatTime, segmentAt, TimedTranscript, type TranscriptSegment } from '@/components/timed-transcript';
import { CaptionsControls, CaptionsTrack, captionsOffer, NO_CAPTIONS, useCaptionsMode, useCaptionsOn, useTrackUrl } from '@/components/video-captions';

import { apiUrl, sharedCaptionsQuery, sharedDownloadUrl, type SharedVideoAnswer } from '../api/get-shared-review';

/**
 * A video answer on the shared page: the player streams the file through the link (the server's streaming route,
 * with Range, so it seeks) with the answer's captions, and the transcript below; once the media worker stored it with
 * times, each segment is a button that plays the video from there, the one being played marked (aria-current).
 */
export function SharedVideoAnswerView({ answer }: { answer: SharedVideoAnswer }) {
  const ref = useRef<HTMLVideoElement>(null);
  const [time, setTime] = useState(0);
  const segments = answer.transcriptSegments?.length ? answer.transcriptSegments : null;
  const active = segments ? segmentAt(segments, time) : -1;

  // the server says which files the link offers; why there are none follows the transcript's state
  const known = captionsOffer(answer.transcriptStatus, answer.transcript, segments);
  const offer = {
    captions: Boolean(answer.captionsUrl),
    text: Boolean(answer.transcriptUrl),
    reason: answer.captionsUrl ? null : (known.reason ?? NO_CAPTIONS.failed),
  };
  const captions = useQuery({ ...sharedCaptionsQuery(answer.captionsUrl ?? ''), enabled: offer.captions });
  const trackUrl = useTrackUrl(offer.captions ? captions.data : undefined);
  const [captionsOn, setCaptionsOn] = useCaptionsOn();
  useCaptionsMode(ref, trackUrl, captionsOn, setCaptionsOn);

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
      >
        <CaptionsTrack src={trackUrl} language={answer.language ?? 'en'} on={captionsOn} />
      </video>
      {answer.durationSeconds > 0 && (
        <Text size="1" color="gray">
          Duration {formatTime(answer.durationSeconds)}
        </Text>
      )}
      <CaptionsControls
        offer={offer}
        on={captionsOn}
        onToggle={setCaptionsOn}
        captionsHref={sharedDownloadUrl(answer.captionsUrl)}
        textHref={sharedDownloadUrl(answer.transcriptUrl)}
        loadFailed={captions.isError}
      />
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
