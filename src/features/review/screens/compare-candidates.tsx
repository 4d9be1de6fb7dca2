import { Button, Callout, Card, Flex, Grid, Heading, Link as RadixLink, Separator, Text } from '@radix-ui/themes';
import { useQueries, useQuery } from '@tanstack/react-query';
import { ClientResponseError } from 'pocketbase';
import { useCallback, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router-dom';

import { PageSpinner } from '@/components/page-spinner';
import { paths } from '@/config/paths';
import { useSignedInUser } from '@/lib/session';

import {
  answersTo,
  besideAnswer,
  compareGrid,
  compareQuestions,
  compareReviewQuery,
  readCompareIds,
  type CompareColumn,
  type Unavailable,
} from '../api/compare-candidates';
import { useReviewAnswerUpdates } from '../api/review-answer-updates';
import type { CandidateReview, ReviewAnswer, ReviewQuestion } from '../api/review-candidate';
import { useReviewFeedbackUpdates } from '../api/review-feedback-updates';
import { formatStars, overallScore, ratingQueries, summarizeAnswer, usePendingStars, useRateAnswer } from '../api/review-ratings';
import { ReviewAnswerCard } from '../components/review-answer';
import { ReviewPlayerProvider, useReviewPlayerState } from '../components/review-player';
import { answerLabel, askedTitle } from '../components/review-question';
import { COMPARE_SHORTCUTS, useReviewShortcuts } from '../components/review-shortcuts';
import { ShortcutsHelp } from '../components/shortcuts-help';

/** Each answer's way to be rated from the keyboard, set by the cell that shows it (its candidate's ratings). */
type Raters = Map<string, (stars: number | null) => void>;

/**
 * Two to four candidates of a job side by side (the pipeline's selection opens it with their ids in
 * `?candidates=`): each question of the job with every candidate's answer to it (video with captions and transcript,
 * or text) and the manager's rating, in columns; and the review's keyboard shortcuts. Each candidate is read through
 * the review route, which answers only a manager of the candidate's company: another company's candidate, or one
 * deleted since, is named as not found and shows nothing; another job's candidate is named as such and shows nothing.
 */
export function CompareCandidatesScreen() {
  const { companyId = '', jobId = '' } = useParams();
  const [searchParams] = useSearchParams();
  const { ids, problem } = useMemo(() => readCompareIds(searchParams), [searchParams]);
  const pipeline = paths.companies.jobs.detail.href(companyId, jobId);

  if (problem) {
    return (
      <Flex direction="column" gap="4" align="start">
        <Heading as="h1">Compare candidates</Heading>
        <Callout.Root color="amber" role="alert">
          <Callout.Text>
            {problem === 'too-few'
              ? 'Choose at least two candidates of this job in the pipeline to compare them.'
              : 'Choose at most four candidates to compare: the link names more.'}
          </Callout.Text>
        </Callout.Root>
        <Button asChild variant="soft">
          <Link to={pipeline}>Back to the pipeline</Link>
        </Button>
      </Flex>
    );
  }
  // a fresh comparison (current answer, its players) for each set of candidates
  return <CompareContent key={ids.join(',')} ids={ids} companyId={companyId} jobId={jobId} />;
}

function CompareContent({ ids, companyId, jobId }: { ids: string[]; companyId: string; jobId: string }) {
  const reviews = useQueries({ queries: ids.map((id) => compareReviewQuery(id)) });
  const pipeline = paths.companies.jobs.detail.href(companyId, jobId);

  const settled = reviews.every((query) => query.data !== undefined || query.isError);
  // anything but a 404 (the server out of reach): the route's error page, with its reload
  const failure = reviews.find((query) => query.isError && !isNotFound(query.error))?.error;
  const columns: CompareColumn[] = [];
  const unavailable: Unavailable[] = [];
  reviews.forEach((query, index) => {
    if (query.data && query.data.job === jobId) columns.push({ id: ids[index]!, review: query.data });
    else if (query.data) unavailable.push('other-job');
    else if (query.isError && isNotFound(query.error)) unavailable.push('not-found');
  });

  if (failure) throw failure;
  if (!settled) return <PageSpinner />;
  return <Comparison columns={columns} unavailable={unavailable} companyId={companyId} jobId={jobId} pipeline={pipeline} />;
}

function isNotFound(error: unknown): boolean {
  return error instanceof ClientResponseError && error.status === 404;
}

type ComparisonProps = {
  columns: CompareColumn[];
  unavailable: Unavailable[];
  companyId: string;
  jobId: string;
  pipeline: string;
};

function Comparison({ columns, unavailable, companyId, jobId, pipeline }: ComparisonProps) {
  const user = useSignedInUser();
  const job = columns[0]?.review.expand?.job;
  const questions = useMemo(() => compareQuestions(columns), [columns]);
  const grid = useMemo(() => compareGrid(columns, questions), [columns, questions]);
  const player = useReviewPlayerState(grid.order);
  const raters = useRef<Raters>(new Map());
  const [helpOpen, setHelpOpen] = useState(false);

  const beside = (delta: 1 | -1) => {
    const target = player.currentAnswerId ? besideAnswer(grid.rows, player.currentAnswerId, delta) : null;
    if (target) player.moveTo(target);
  };
  useReviewShortcuts({
    togglePlay: player.togglePlay,
    nextAnswer: () => player.moveAnswer(1),
    previousAnswer: () => player.moveAnswer(-1),
    nextCandidate: () => beside(1),
    previousCandidate: () => beside(-1),
    rate: (stars) => player.currentAnswerId && raters.current.get(player.currentAnswerId)?.(stars),
    toggleHelp: () => setHelpOpen((open) => !open),
  });

  const notFound = unavailable.filter((why) => why === 'not-found').length;
  const otherJob = unavailable.filter((why) => why === 'other-job').length;
  const width = Math.max(columns.length, 1);
  const gridColumns = { initial: '1', sm: String(Math.min(width, 2)), lg: String(width) } as const;

  return (
    <ReviewPlayerProvider player={player}>
      {columns.map(({ id }) => (
        <LiveCandidate key={id} candidateId={id} />
      ))}
      <Flex direction="column" gap="5">
        <Flex asChild justify="between" align="start" gap="4" wrap="wrap">
          <header>
            <Flex direction="column" gap="1">
              <Text size="2">
                <Link to={pipeline}>{job?.title ?? 'Job'}</Link>
              </Text>
              <Heading as="h1">Compare candidates</Heading>
              <Text size="2" color="gray">
                {columns.length} {columns.length === 1 ? 'candidate' : 'candidates'} side by side
              </Text>
            </Flex>
            <ShortcutsHelp open={helpOpen} onOpenChange={setHelpOpen} shortcuts={COMPARE_SHORTCUTS} />
          </header>
        </Flex>

        {(notFound > 0 || otherJob > 0) && (
          <Callout.Root color="amber" role="alert">
            {notFound > 0 && (
              <Callout.Text>
                {notFound === 1 ? 'One candidate in this link could not be found' : `${notFound} candidates in this link could not be found`}: the
                invitation may have been deleted, or it belongs to a company you don&apos;t manage.
              </Callout.Text>
            )}
            {otherJob > 0 && (
              <Callout.Text>
                {otherJob === 1 ? 'One candidate in this link applied to another job' : `${otherJob} candidates in this link applied to another job`}:
                only this job&apos;s candidates are compared here.
              </Callout.Text>
            )}
          </Callout.Root>
        )}

        {columns.length === 0 ? (
          <Button asChild variant="soft" style={{ alignSelf: 'start' }}>
            <Link to={pipeline}>Back to the pipeline</Link>
          </Button>
        ) : (
          <>
            <Grid columns={gridColumns} gap="4" asChild>
              <ul aria-label="Compared candidates" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
                {columns.map(({ id, review }) => (
                  <li key={id}>
                    <CandidateSummary review={review} companyId={companyId} jobId={jobId} userId={user.id} answerIds={grid.order} />
                  </li>
                ))}
              </ul>
            </Grid>
            {questions.map((question, index) => (
              <Flex key={question.id} direction="column" gap="3">
                <Separator size="4" />
                <QuestionRow
                  position={index + 1}
                  question={question}
                  columns={columns}
                  gridColumns={gridColumns}
                  userId={user.id}
                  raters={raters.current}
                />
              </Flex>
            ))}
          </>
        )}
      </Flex>
    </ReviewPlayerProvider>
  );
}

/** Keeps a column live, as the review does: the worker's transcripts, new answers, other managers' ratings. */
function LiveCandidate({ candidateId }: { candidateId: string }) {
  useReviewAnswerUpdates(candidateId);
  useReviewFeedbackUpdates(candidateId);
  return null;
}

type CandidateSummaryProps = { review: CandidateReview; companyId: string; jobId: string; userId: string; answerIds: readonly string[] };

/** A column's head: the candidate, a link to their full review, and their overall score. */
function CandidateSummary({ review, companyId, jobId, userId, answerIds }: CandidateSummaryProps) {
  const ratings = useQuery(ratingQueries.list(review.id));
  const pending = usePendingStars(review.id);
  const own = (review.expand?.answers_via_candidate ?? []).map((answer) => answer.id).filter((id) => answerIds.includes(id));
  const score = overallScore(own.map((id) => summarizeAnswer(ratings.data ?? [], id, userId, pending.has(id) ? pending.get(id) : undefined)));
  return (
    <Card>
      <Flex direction="column" gap="1">
        {/* an address breaks anywhere rather than run past a narrow column */}
        <Heading as="h2" size="3" style={{ overflowWrap: 'anywhere' }}>
          {review.email}
        </Heading>
        <Text size="2" color="gray">
          {score ? `Overall score ${formatStars(score.score)} out of 5` : 'Not rated yet'}
        </Text>
        <Text size="2">
          <RadixLink asChild>
            <Link to={paths.companies.jobs.candidate.href(companyId, jobId, review.id)}>Open review</Link>
          </RadixLink>
        </Text>
      </Flex>
    </Card>
  );
}

type QuestionRowProps = {
  position: number;
  question: ReviewQuestion;
  columns: CompareColumn[];
  gridColumns: { initial: string; sm: string; lg: string };
  userId: string;
  raters: Raters;
};

/** A question, and each candidate's answer to it in the candidates' columns. */
function QuestionRow({ position, question, columns, gridColumns, userId, raters }: QuestionRowProps) {
  const headingId = `compare-question-${question.id}`;
  const title = columns.map(({ review }) => answersTo(review, question.id)).find((answers) => answers.length > 0);
  return (
    <Flex asChild direction="column" gap="3">
      <section aria-labelledby={headingId}>
        <Heading as="h2" size="4" id={headingId}>
          {position}. {askedTitle(question, title ?? [])}
        </Heading>
        <Grid columns={gridColumns} gap="4" align="start">
          {columns.map(({ id, review }) => (
            <CandidateCell
              key={id}
              review={review}
              position={position}
              question={question}
              answers={answersTo(review, question.id)}
              userId={userId}
              raters={raters}
            />
          ))}
        </Grid>
      </section>
    </Flex>
  );
}

type CandidateCellProps = {
  review: CandidateReview;
  position: number;
  question: ReviewQuestion;
  answers: ReviewAnswer[];
  userId: string;
  raters: Raters;
};

/** One candidate's answers to one question with the manager's rating, or that they gave none. */
function CandidateCell({ review, position, question, answers, userId, raters }: CandidateCellProps) {
  const candidateId = review.id;
  const ratings = useQuery(ratingQueries.list(candidateId));
  const pending = usePendingStars(candidateId);
  const rate = useRateAnswer(candidateId, userId);
  const { mutate } = rate;
  const onRate = useCallback((answerId: string, stars: number | null) => mutate({ answerId, stars }), [mutate]);

  // the keyboard's 1-5 rate the current answer through its own candidate's ratings
  useLayoutEffect(() => {
    for (const answer of answers) raters.set(answer.id, (stars) => onRate(answer.id, stars));
    return () => {
      for (const answer of answers) raters.delete(answer.id);
    };
  }, [answers, onRate, raters]);

  const who = (
    <Text size="2" weight="bold" style={{ overflowWrap: 'anywhere' }}>
      {review.email}
    </Text>
  );
  if (answers.length === 0) {
    return (
      <Card>
        <Flex direction="column" gap="2">
          {who}
          <Text color="gray">No answer</Text>
        </Flex>
      </Card>
    );
  }
  return (
    <Flex direction="column" gap="3">
      {answers.map((answer, index) => (
        <ReviewAnswerCard
          key={answer.id}
          answer={answer}
          heading={who}
          label={`${review.email}: ${answerLabel(position, askedTitle(question, [answer]), index, answers.length)}`}
          language={review.expand?.job?.language ?? ''}
          rating={summarizeAnswer(ratings.data ?? [], answer.id, userId, pending.has(answer.id) ? pending.get(answer.id) : undefined)}
          onRate={onRate}
        />
      ))}
    </Flex>
  );
}
