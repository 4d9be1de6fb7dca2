import './shared-review.css';
import './shared-review-page.css';

import { Box, Button, Callout, Card, Container, Flex, Heading, Separator, Text } from '@radix-ui/themes';
import type { ReactNode } from 'react';
import { useLoaderData, useRouteError, type LoaderFunctionArgs } from 'react-router-dom';

import { Logo } from '@/components/logo';
import { GENERIC_ERROR_MESSAGE } from '@/lib/errors';
import { formatDate } from '@/lib/format-date';

import {
  apiUrl,
  getSharedReview,
  SharedLinkError,
  type SharedComment,
  type SharedLinkProblem,
  type SharedQuestion,
  type SharedRatings,
} from '../api/get-shared-review';
import { SharedVideoAnswerView } from '../components/shared-video-answer';

/** The link's review, before the page renders; a refused link lands in SharedReviewError. */
export function sharedReviewLoader({ params, request }: LoaderFunctionArgs) {
  return getSharedReview(params.token ?? '', request.signal);
}

/**
 * /shared/{token} (issue 15): a manager's read-only link to one candidate's review, for a colleague without an
 * account. No app shell, no sign-in, no session: the page neither reads nor writes the signed-in user.
 */
export function SharedReviewScreen() {
  const review = useLoaderData<typeof sharedReviewLoader>();
  return (
    <Frame>
      <Flex direction="column" gap="5">
        <Flex asChild direction="column" gap="3">
          <header>
            <Flex align="center" gap="3">
              {review.companyLogoUrl && <img className="shared-logo" src={apiUrl(review.companyLogoUrl)} alt="" />}
              <Flex direction="column">
                <Text size="3" weight="bold">
                  {review.companyName}
                </Text>
                <Text size="2" color="gray">
                  {review.jobTitle}
                </Text>
              </Flex>
            </Flex>
            <Heading as="h1">{review.candidateEmail}</Heading>
            <Text size="2" color="gray">
              Shared candidate review, read-only
            </Text>
          </header>
        </Flex>

        {review.questions.map((question, index) => (
          <Flex key={index} direction="column" gap="5">
            <Separator size="4" />
            <QuestionSection position={index + 1} question={question} includeFeedback={review.includeFeedback} />
          </Flex>
        ))}

        {review.includeFeedback && (
          <>
            <Separator size="4" />
            <Comments comments={review.comments ?? []} />
          </>
        )}
      </Flex>
    </Frame>
  );
}

function QuestionSection({ position, question, includeFeedback }: { position: number; question: SharedQuestion; includeFeedback: boolean }) {
  const headingId = `shared-question-${position}`;
  const answer = question.answer;
  return (
    <Flex asChild direction="column" gap="3">
      <section aria-labelledby={headingId}>
        <Heading as="h2" size="4" id={headingId}>
          {position}. {question.title}
        </Heading>
        {answer === null ? (
          <Text color="gray">No answer</Text>
        ) : (
          <Card>
            <Flex direction="column" gap="4">
              {answer.kind === 'video' ? (
                <SharedVideoAnswerView answer={answer} />
              ) : (
                <Text as="p" style={{ whiteSpace: 'pre-wrap' }}>
                  {answer.content}
                </Text>
              )}
              {includeFeedback && answer.ratings && <Ratings ratings={answer.ratings} />}
            </Flex>
          </Card>
        )}
      </section>
    </Flex>
  );
}

const starsFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

function Ratings({ ratings }: { ratings: SharedRatings }) {
  return (
    <Box data-testid="answer-ratings">
      <Text as="div" size="2" weight="bold" mb="1">
        Ratings
      </Text>
      {ratings.count === 0 || ratings.average === null ? (
        <Text size="2" color="gray">
          Not rated yet
        </Text>
      ) : (
        <Flex direction="column" gap="1">
          <Text size="2">
            Average {starsFormat.format(ratings.average)} out of 5, {ratings.count} {ratings.count === 1 ? 'rating' : 'ratings'}
          </Text>
          <ul className="shared-ratings">
            {ratings.byManager.map((rating, index) => (
              <li key={index}>
                <Text size="2">
                  {rating.managerName || 'A former manager'}:{' '}
                  <span className="shared-stars" aria-hidden="true">
                    {'★'.repeat(rating.stars)}
                    {'☆'.repeat(Math.max(0, 5 - rating.stars))}
                  </span>{' '}
                  {rating.stars} {rating.stars === 1 ? 'star' : 'stars'}
                </Text>
              </li>
            ))}
          </ul>
        </Flex>
      )}
    </Box>
  );
}

function Comments({ comments }: { comments: SharedComment[] }) {
  return (
    <Flex asChild direction="column" gap="3">
      <section aria-labelledby="shared-comments">
        <Heading as="h2" size="4" id="shared-comments">
          Comments
        </Heading>
        {comments.length === 0 ? (
          <Text color="gray">No comments yet</Text>
        ) : (
          <ul className="shared-comments">
            {comments.map((comment, index) => (
              <li key={index}>
                <Card asChild>
                  <article aria-label={`Comment by ${comment.authorName || 'a former manager'}`}>
                    <Flex gap="2" align="baseline" wrap="wrap">
                      <Text size="2" weight="bold">
                        {comment.authorName || 'A former manager'}
                      </Text>
                      <Text size="1" color="gray">
                        <time dateTime={comment.created.replace(' ', 'T')}>{formatDate(comment.created)}</time>
                      </Text>
                    </Flex>
                    <Text as="p" size="2" mt="1" style={{ whiteSpace: 'pre-wrap' }}>
                      {comment.text}
                    </Text>
                  </article>
                </Card>
              </li>
            ))}
          </ul>
        )}
      </section>
    </Flex>
  );
}

const PROBLEMS: Record<SharedLinkProblem, { title: string; text: string }> = {
  'not-valid': {
    title: 'This link is not valid.',
    text: 'Check that you copied the whole link, or ask the person who shared it for a new one.',
  },
  expired: {
    title: 'This link has expired.',
    text: 'Ask the person who shared it with you for a new link.',
  },
  revoked: {
    title: 'This link was revoked.',
    text: 'Ask the person who shared it with you for a new link.',
  },
};

/** A link that opens nothing is a clear page of its own, never a crash. */
export function SharedReviewError() {
  const error = useRouteError();
  const problem = error instanceof SharedLinkError ? error.problem : null;
  if (!problem) console.error(error);
  return (
    <Frame>
      {problem ? (
        <Flex direction="column" align="center" gap="3" py="6">
          <Heading as="h1" size="6" align="center">
            {PROBLEMS[problem].title}
          </Heading>
          <Text color="gray" align="center">
            {PROBLEMS[problem].text}
          </Text>
        </Flex>
      ) : (
        <Flex direction="column" align="center" gap="4" py="6">
          <Callout.Root color="red" role="alert">
            <Callout.Text>{GENERIC_ERROR_MESSAGE}</Callout.Text>
          </Callout.Root>
          <Button variant="soft" onClick={() => window.location.reload()}>
            Reload the page
          </Button>
        </Flex>
      )}
    </Frame>
  );
}

function Frame({ children }: { children: ReactNode }) {
  return (
    <Container size="3" px="4" py="6">
      <Flex justify="center" mb="6">
        <Logo />
      </Flex>
      <main>{children}</main>
    </Container>
  );
}
