import { Callout, Card, Flex, Text } from '@radix-ui/themes';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useId, useMemo, useRef, useState, type ReactNode } from 'react';

import { CaptionsControls, CaptionsTrack, captionsOffer, useCaptionsMode, useCaptionsOn, useTrackUrl } from '@/components/video-captions';
import { formatDate } from '@/lib/format-date';
import type { VideoAnswersResponse } from '@/lib/pocketbase-types';
import { useSignedInUser } from '@/lib/session';

import { captionQueries, transcriptDownloadUrl } from '../api/answer-captions';
import { firstOf, transcriptSegments, type ReviewAnswer, type TranscriptSegment } from '../api/review-candidate';
import { answerVideoUrl, reviewFileTokenQueries } from '../api/review-file-token';
import type { RatingSummary } from '../api/review-ratings';

import { AnswerRating } from './answer-rating';
import { AnswerTranscript, formatTime, segmentAt } from './answer-transcript';
import { formatSpeed, PLAYBACK_SPEEDS, usePlaybackSpeed, type PlaybackSpeed } from './playback-speed';
import { useReviewPlayer } from './review-player';
import { ReviewVideo } from './review-video';

import './review.css';

type ReviewAnswerCardProps = {
  answer: ReviewAnswer;
  /** The card's accessible name: which question it answers (and whose answer, where several candidates show). */
  label: string;
  /** The language of the answer's transcript and captions: the job's. */
  language: string;
  rating: RatingSummary;
  onRate: (answerId: string, stars: number | null) => void;
  /** Shown above the answer's time (the comparison names the candidate there). */
  heading?: ReactNode;
};

/** A token younger than this is not refetched when the player fails: the failure has another cause. */
const FRESH_TOKEN_MS = 30_000;

/**
 * One answer: its id and time, then the video with its captions and transcript, or the text (spec §2 "Review"), and
 * the managers' ratings of it. The current answer of the review (the keyboard shortcuts' target) is outlined. Its
 * accessible name says which question it answers, not its record id.
 */
export function ReviewAnswerCard({ answer, label, language, rating, onRate, heading }: ReviewAnswerCardProps) {
  const player = useReviewPlayer();
  const video = firstOf(answer.expand?.video_answers_via_answer);
  const text = firstOf(answer.expand?.text_answers_via_answer);
  const current = player.currentAnswerId === answer.id;
  const { registerCard, setCurrentAnswer } = player;
  const cardRef = useCallback((card: HTMLElement | null) => registerCard(answer.id, card), [registerCard, answer.id]);

  return (
    <Card asChild>
      <article
        ref={cardRef}
        aria-label={label}
        aria-current={current ? 'true' : undefined}
        className="review-answer"
        // moved to by the keyboard (N, P): focusable, but not a tab stop
        tabIndex={-1}
        onFocusCapture={() => setCurrentAnswer(answer.id)}
        onPointerDownCapture={() => setCurrentAnswer(answer.id)}
      >
        <Flex direction="column" gap="3">
          {heading}
          <Flex gap="3" wrap="wrap" align="center">
            <Text size="1" color="gray">
              Answer <Text weight="medium">{answer.id}</Text>
            </Text>
            <Text size="1" color="gray">
              <time dateTime={answer.created}>{formatDate(answer.created)}</time>
            </Text>
          </Flex>
          {video ? (
            <VideoAnswer answerId={answer.id} candidateId={answer.candidate} video={video} language={language} />
          ) : text ? (
            <Text as="p" style={{ whiteSpace: 'pre-wrap' }}>
              {text.content}
            </Text>
          ) : (
            <Callout.Root color="red" role="alert" size="1">
              <Callout.Text>Invalid answer type</Callout.Text>
            </Callout.Root>
          )}
          <AnswerRating summary={rating} onRate={(stars) => onRate(answer.id, stars)} />
        </Flex>
      </article>
    </Card>
  );
}

function VideoAnswer({
  answerId,
  candidateId,
  video,
  language,
}: {
  answerId: string;
  candidateId: string;
  video: VideoAnswersResponse;
  language: string;
}) {
  const user = useSignedInUser();
  const player = useReviewPlayer();
  const { registerVideo, playing } = player;
  const speedId = useId();
  const [speed, setSpeed] = usePlaybackSpeed(user.id);
  // one token for every player of the page (same query key), refreshed every 2 minutes
  const token = useQuery(reviewFileTokenQueries.token(user.id));
  const src = answerVideoUrl(video, token.data);
  // A tab that slept through the refresh can hold an expired token: get a fresh one, the player keeps its place.
  const onLoadError = () => {
    if (Date.now() - token.dataUpdatedAt > FRESH_TOKEN_MS) void token.refetch();
  };

  const element = useRef<HTMLVideoElement | null>(null);
  const videoRef = useCallback(
    (node: HTMLVideoElement | null) => {
      element.current = node;
      registerVideo(answerId, node);
    },
    [registerVideo, answerId],
  );
  const segments = useMemo(() => transcriptSegments(video), [video]);
  const offer = captionsOffer(video.transcriptStatus ?? '', video.transcript ?? '', segments);
  const captions = useQuery({ ...captionQueries.vtt(video.id, video.updated), enabled: offer.captions });
  const trackUrl = useTrackUrl(offer.captions ? captions.data : undefined);
  const [captionsOn, setCaptionsOn] = useCaptionsOn();
  useCaptionsMode(element, trackUrl, captionsOn, setCaptionsOn);
  const [activeIndex, setActiveIndex] = useState(-1);
  const follow = (time: number) => {
    if (!segments) return;
    const index = segmentAt(segments, time);
    setActiveIndex((before) => (before === index ? before : index));
  };
  const seek = (segment: TranscriptSegment) => {
    const node = element.current;
    if (!node) return;
    node.currentTime = segment.start;
    follow(segment.start);
    void node.play().catch(() => undefined);
  };

  return (
    <Flex direction="column" gap="2">
      <ReviewVideo
        src={src}
        label="Answer video"
        onLoadError={onLoadError}
        playbackRate={speed}
        videoRef={videoRef}
        onPlay={() => playing(answerId)}
        onTimeUpdate={(event) => follow(event.currentTarget.currentTime)}
        onSeeked={(event) => follow(event.currentTarget.currentTime)}
      >
        <CaptionsTrack src={trackUrl} language={language} on={captionsOn} />
      </ReviewVideo>
      <Flex gap="4" align="center" wrap="wrap">
        <Text as="label" size="1" color="gray" htmlFor={speedId}>
          Playback speed{' '}
          <select
            id={speedId}
            value={speed}
            onChange={(event) => setSpeed(Number(event.target.value) as PlaybackSpeed)}
            style={{ font: 'inherit', color: 'var(--gray-12)' }}
          >
            {PLAYBACK_SPEEDS.map((option) => (
              <option key={option} value={option}>
                {formatSpeed(option)}
              </option>
            ))}
          </select>
        </Text>
        {video.durationSeconds > 0 && (
          <Text size="1" color="gray">
            Duration {formatTime(video.durationSeconds)}
          </Text>
        )}
      </Flex>
      <CaptionsControls
        offer={offer}
        on={captionsOn}
        onToggle={setCaptionsOn}
        captionsHref={transcriptDownloadUrl(video.id, 'captions.vtt', token.data) || undefined}
        textHref={transcriptDownloadUrl(video.id, 'transcript.txt', token.data) || undefined}
        loadFailed={captions.isError}
      />
      <div>
        <Text as="div" size="2" weight="bold" mb="1">
          Transcript
        </Text>
        <AnswerTranscript video={video} candidateId={candidateId} segments={segments} activeIndex={activeIndex} onSeek={seek} />
      </div>
    </Flex>
  );
}
