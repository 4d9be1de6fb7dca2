import { Flex, Heading, Separator, Text } from '@radix-ui/themes';
import { useSuspenseQuery } from '@tanstack/react-query';
import { data, Link, useParams, type LoaderFunctionArgs } from 'react-router-dom';

import { paths } from '@/config/paths';
import { ShareCandidateButton } from '@/features/share-links/components/share-candidate-button';
import { queryClient } from '@/lib/query-client';

import { useReviewAnswerUpdates } from '../api/review-answer-updates';
import { firstOf, reviewQueries, type ReviewAnswer } from '../api/review-candidate';
import { ReviewQuestionSection } from '../components/review-question';

/** Without realtime (blocked by a proxy, say), pending transcripts are polled instead. */
const POLL_WITHOUT_REALTIME_MS = 15_000;

export async function candidateReviewLoader({ params }: LoaderFunctionArgs) {
  const candidateId = params.candidateId ?? '';
  const review = await queryClient.ensureQueryData(reviewQueries.detail(candidateId));
  // A candidate of another job behind this job's URL is not a page.
  // eslint-disable-next-line @typescript-eslint/only-throw-error -- React Router's way for a loader to answer 404
  if (review.job !== params.jobId) throw data('Not found', { status: 404 });
  return null;
}

/** Spec §2 "Review (for managers)": the candidate's e-mail, then every job question in order with its answers. */
export function CandidateReviewScreen() {
  const { companyId = '', jobId = '', candidateId = '' } = useParams();
  const live = useReviewAnswerUpdates(candidateId);
  const { data: review } = useSuspenseQuery({
    ...reviewQueries.detail(candidateId),
    refetchInterval: (query) => (!live && hasPendingTranscript(query.state.data?.expand?.answers_via_candidate) ? POLL_WITHOUT_REALTIME_MS : false),
  });

  const job = review.expand?.job;
  const questions = job?.expand?.questions ?? [];
  const answers = review.expand?.answers_via_candidate ?? [];

  return (
    <Flex direction="column" gap="5">
      <Flex direction="column" gap="1">
        <Text size="2">
          <Link to={paths.companies.jobs.detail.href(companyId, jobId)}>{job?.title ?? 'Job'}</Link>
        </Text>
        <Heading as="h1">{review.email}</Heading>
        <Text size="2" color="gray">
          Candidate
        </Text>
        <ShareCandidateButton candidateId={candidateId} candidateEmail={review.email} />
      </Flex>
      {questions.map((question, index) => (
        <Flex key={question.id} direction="column" gap="5">
          <Separator size="4" />
          <ReviewQuestionSection
            position={index + 1}
            question={question}
            answers={answersTo(answers, question.id)}
          />
        </Flex>
      ))}
    </Flex>
  );
}

function answersTo(answers: ReviewAnswer[], questionId: string): ReviewAnswer[] {
  return answers.filter((answer) => answer.question === questionId).sort((a, b) => a.created.localeCompare(b.created));
}

function hasPendingTranscript(answers: ReviewAnswer[] | undefined): boolean {
  return (answers ?? []).some((answer) => firstOf(answer.expand?.video_answers_via_answer)?.transcriptStatus === 'pending');
}
