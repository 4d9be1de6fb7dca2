import { Badge, Box, Callout, Card, Flex, Text } from '@radix-ui/themes';
import { useQuery } from '@tanstack/react-query';

import { formatDate } from '@/lib/format-date';
import type { VideoAnswersResponse } from '@/lib/pocketbase-types';
import { useSignedInUser } from '@/lib/session';

import { firstOf, type ReviewAnswer } from '../api/review-candidate';
import { answerVideoUrl, reviewFileTokenQueries } from '../api/review-file-token';

import { ReviewVideo } from './review-video';

type ReviewAnswerCardProps = {
  answer: ReviewAnswer;
};

/** A token younger than this is not refetched when the player fails: the failure has another cause. */
const FRESH_TOKEN_MS = 30_000;

/** One answer: its id and time, then the video with its transcript, or the text (spec §2 "Review"). */
export function ReviewAnswerCard({ answer }: ReviewAnswerCardProps) {
  const video = firstOf(answer.expand?.video_answers_via_answer);
  const text = firstOf(answer.expand?.text_answers_via_answer);

  return (
    <Card asChild>
      <article aria-label={`Answer ${answer.id}`}>
        <Flex direction="column" gap="3">
          <Flex gap="3" wrap="wrap" align="center">
            <Text size="1" color="gray">
              Answer <Text weight="medium">{answer.id}</Text>
            </Text>
            <Text size="1" color="gray">
              <time dateTime={answer.created}>{formatDate(answer.created)}</time>
            </Text>
          </Flex>
          {video ? (
            <VideoAnswer video={video} />
          ) : text ? (
            <Text as="p" style={{ whiteSpace: 'pre-wrap' }}>
              {text.content}
            </Text>
          ) : (
            <Callout.Root color="red" role="alert" size="1">
              <Callout.Text>Invalid answer type</Callout.Text>
            </Callout.Root>
          )}
        </Flex>
      </article>
    </Card>
  );
}

function VideoAnswer({ video }: { video: VideoAnswersResponse }) {
  const user = useSignedInUser();
  // one token for every player of the page (same query key), refreshed every 2 minutes
  const token = useQuery(reviewFileTokenQueries.token(user.id));
  const src = answerVideoUrl(video, token.data);
  // A tab that slept through the refresh can hold an expired token: get a fresh one, the player keeps its place.
  const onLoadError = () => {
    if (Date.now() - token.dataUpdatedAt > FRESH_TOKEN_MS) void token.refetch();
  };
  return (
    <Flex direction="column" gap="2">
      <ReviewVideo src={src} label="Answer video" onLoadError={onLoadError} />
      {video.durationSeconds > 0 && (
        <Text size="1" color="gray">
          Duration {formatDuration(video.durationSeconds)}
        </Text>
      )}
      <Box>
        <Text as="div" size="2" weight="bold" mb="1">
          Transcript
        </Text>
        <Transcript video={video} />
      </Box>
    </Flex>
  );
}

function Transcript({ video }: { video: VideoAnswersResponse }) {
  if (video.transcriptStatus === 'done') {
    return video.transcript ? (
      <Text as="p" size="2" data-testid="transcript">
        {video.transcript}
      </Text>
    ) : (
      <Text as="p" size="2" color="gray" data-testid="transcript">
        No speech detected
      </Text>
    );
  }
  if (video.transcriptStatus === 'failed') {
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

function formatDuration(seconds: number): string {
  const whole = Math.floor(seconds); // as the player shows it
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}
