import { Card, Flex, Grid, Heading, Separator, Text } from '@radix-ui/themes';
import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { data, Link, useNavigate, useParams, useSearchParams, type LoaderFunctionArgs } from 'react-router-dom';

import { DecisionMessagesPanel } from '@/features/decision-messages/components/decision-messages-panel';
import { ShareCandidateButton } from '@/features/share-links/components/share-candidate-button';
import { queryClient } from '@/lib/query-client';
import { useSignedInUser } from '@/lib/session';

import { pipelineHref, readReviewPosition } from '../api/candidate-neighbours';
import { useReviewAnswerUpdates } from '../api/review-answer-updates';
import { firstOf, reviewQueries, type ReviewAnswer } from '../api/review-candidate';
import { commentQueries } from '../api/review-comments';
import { useReviewFeedbackUpdates } from '../api/review-feedback-updates';
import { formatStars, overallScore, ratingQueries, summarizeAnswer, usePendingStars, useRateAnswer } from '../api/review-ratings';
import { CandidateNavigation, useCandidateNeighbours } from '../components/candidate-navigation';
import { EraseCandidateButton, ExportCandidateButton } from '../components/candidate-data-actions';
import { CommentsThread } from '../components/comments-thread';
import { DecisionPanel } from '../components/decision-panel';
import { DeleteCandidateButton } from '../components/delete-candidate-dialog';
import { InvitationPanel } from '../components/invitation-panel';
import { ReviewPlayerProvider, useReviewPlayerState } from '../components/review-player';
import { ReviewQuestionSection } from '../components/review-question';
import { useReviewShortcuts } from '../components/review-shortcuts';
import { ShortcutsHelp } from '../components/shortcuts-help';

/** Without realtime (blocked by a proxy, say), pending transcripts are polled instead. */
const POLL_WITHOUT_REALTIME_MS = 15_000;

export async function candidateReviewLoader({ params }: LoaderFunctionArgs) {
  const candidateId = params.candidateId ?? '';
  // the managers' ratings and comments load alongside the review, which the screen waits for
  void queryClient.prefetchQuery(ratingQueries.list(candidateId));
  void queryClient.prefetchQuery(commentQueries.list(candidateId));
  const review = await queryClient.ensureQueryData(reviewQueries.detail(candidateId));
  // A candidate of another job behind this job's URL is not a page.
  // eslint-disable-next-line @typescript-eslint/only-throw-error -- React Router's way for a loader to answer 404
  if (review.job !== params.jobId) throw data('Not found', { status: 404 });
  return null;
}

/**
 * Spec §2 "Review (for managers)": the candidate's e-mail, then every job question in order with its answers; and
 * (issue 15) the managers' ratings, decision and comments, live between managers, the way to the previous and next
 * candidate of the pipeline, and keyboard shortcuts.
 */
export function CandidateReviewScreen() {
  const { candidateId = '' } = useParams();
  // a fresh review (current answer, open forms) for each candidate moved to
  return <CandidateReviewContent key={candidateId} candidateId={candidateId} />;
}

function CandidateReviewContent({ candidateId }: { candidateId: string }) {
  const { companyId = '', jobId = '' } = useParams();
  const [searchParams] = useSearchParams();
  const position = useMemo(() => readReviewPosition(searchParams), [searchParams]);
  const navigate = useNavigate();
  const user = useSignedInUser();
  const live = useReviewAnswerUpdates(candidateId);
  useReviewFeedbackUpdates(candidateId);
  const { data: review } = useSuspenseQuery({
    ...reviewQueries.detail(candidateId),
    refetchInterval: (query) => (!live && hasPendingTranscript(query.state.data?.expand?.answers_via_candidate) ? POLL_WITHOUT_REALTIME_MS : false),
  });

  const job = review.expand?.job;
  const questions = useMemo(() => job?.expand?.questions ?? [], [job]);
  const answers = useMemo(() => review.expand?.answers_via_candidate ?? [], [review]);
  // the answers in the order they are shown: by question in the job's order, then by time
  const orderedAnswerIds = useMemo(
    () => questions.flatMap((question) => answersTo(answers, question.id).map((answer) => answer.id)),
    [questions, answers],
  );
  const player = useReviewPlayerState(orderedAnswerIds);
  // Opened from a search hit (issue 18): at that answer, and at the second its words are said.
  const landingAnswer = searchParams.get('answer');
  const landingSeconds = readSeconds(searchParams.get('t'));
  const landed = landingAnswer !== null && orderedAnswerIds.includes(landingAnswer);
  const { land } = player;
  useEffect(() => {
    if (landed && landingAnswer) land(landingAnswer, landingSeconds);
  }, [land, landed, landingAnswer, landingSeconds]);

  const ratings = useQuery(ratingQueries.list(candidateId));
  const pendingStars = usePendingStars(candidateId);
  const rate = useRateAnswer(candidateId, user.id);
  const ratingOf = (answerId: string) =>
    summarizeAnswer(ratings.data ?? [], answerId, user.id, pendingStars.has(answerId) ? pendingStars.get(answerId) : undefined);
  const onRate = (answerId: string, stars: number | null) => rate.mutate({ answerId, stars });
  const score = overallScore(orderedAnswerIds.map(ratingOf));

  const neighbours = useCandidateNeighbours(companyId, jobId, review, position);
  const [helpOpen, setHelpOpen] = useState(false);
  useReviewShortcuts({
    togglePlay: player.togglePlay,
    nextAnswer: () => player.moveAnswer(1),
    previousAnswer: () => player.moveAnswer(-1),
    nextCandidate: () => neighbours.next && void navigate(neighbours.next),
    previousCandidate: () => neighbours.previous && void navigate(neighbours.previous),
    rate: (stars) => player.currentAnswerId && onRate(player.currentAnswerId, stars),
    toggleHelp: () => setHelpOpen((open) => !open),
  });

  return (
    <ReviewPlayerProvider player={player}>
      <Flex direction="column" gap="5">
        <Flex asChild justify="between" align="start" gap="4" wrap="wrap">
          <header>
            <Flex direction="column" gap="1">
              <Text size="2">
                <Link to={pipelineHref(companyId, jobId, position.state, position.index)}>{job?.title ?? 'Job'}</Link>
              </Text>
              {/* an address breaks anywhere rather than run past a phone's screen ('@' and '.' are no break points) */}
              <Heading as="h1" style={{ overflowWrap: 'anywhere' }}>
                {review.email}
              </Heading>
              <Text size="2" color="gray">
                Candidate
              </Text>
            </Flex>
            {/* The review's actions. Issue 15's share links put their 'Share' button in this group too. */}
            <Flex gap="2" align="center" wrap="wrap" data-testid="review-actions">
              <CandidateNavigation neighbours={neighbours} />
              <ShortcutsHelp open={helpOpen} onOpenChange={setHelpOpen} />
              <ShareCandidateButton companyId={companyId} candidateId={candidateId} candidateEmail={review.email} />
              <DeleteCandidateButton
                candidateId={candidateId}
                jobId={jobId}
                email={review.email}
                answers={answers}
                onDeleted={() => void navigate(pipelineHref(companyId, jobId, position.state, position.index), { replace: true })}
              />
              <ExportCandidateButton candidateId={candidateId} />
              <EraseCandidateButton
                candidateId={candidateId}
                jobId={jobId}
                email={review.email}
                onErased={() => void navigate(pipelineHref(companyId, jobId, position.state, position.index), { replace: true })}
              />
            </Flex>
          </header>
        </Flex>

        <Card>
          <Grid columns={{ initial: '1', sm: '2' }} gap="4">
            <OverallScore score={score} />
            <DecisionPanel candidate={review} />
          </Grid>
        </Card>

        <Card>
          <DecisionMessagesPanel candidate={review} companyId={companyId} />
        </Card>

        <Card>
          <InvitationPanel candidate={review} />
        </Card>

        {questions.map((question, index) => (
          <Flex key={question.id} direction="column" gap="5">
            <Separator size="4" />
            <ReviewQuestionSection
              position={index + 1}
              question={question}
              answers={answersTo(answers, question.id)}
              language={job?.language ?? ''}
              ratingOf={ratingOf}
              onRate={onRate}
            />
          </Flex>
        ))}

        <Separator size="4" />
        <CommentsThread candidateId={candidateId} />
      </Flex>
    </ReviewPlayerProvider>
  );
}

/** The candidate's overall score: the average over the rated answers of each answer's average rating. */
function OverallScore({ score }: { score: ReturnType<typeof overallScore> }) {
  return (
    <Flex direction="column" gap="1" data-testid="overall-score">
      <Text as="div" size="2" weight="bold">
        Overall score
      </Text>
      {score ? (
        <>
          <Text size="6" weight="bold">
            {formatStars(score.score)}
            <Text size="3" weight="regular" color="gray">
              {' '}
              out of 5
            </Text>
          </Text>
          <Text size="1" color="gray">
            Average over {score.answers} rated {score.answers === 1 ? 'answer' : 'answers'}
          </Text>
        </>
      ) : (
        <Text size="2" color="gray">
          Not rated yet
        </Text>
      )}
    </Flex>
  );
}

/** A start time from the URL: seconds, at most a day; null when absent or not a time. */
function readSeconds(raw: string | null): number | null {
  if (raw === null || !/^\d{1,5}(\.\d{1,3})?$/.test(raw)) return null;
  const seconds = Number(raw);
  return seconds <= 86_400 ? seconds : null;
}

function answersTo(answers: ReviewAnswer[], questionId: string): ReviewAnswer[] {
  return answers.filter((answer) => answer.question === questionId).sort((a, b) => a.created.localeCompare(b.created));
}

function hasPendingTranscript(answers: ReviewAnswer[] | undefined): boolean {
  return (answers ?? []).some((answer) => firstOf(answer.expand?.video_answers_via_answer)?.transcriptStatus === 'pending');
}
