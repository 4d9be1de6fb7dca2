import { useSuspenseQuery } from '@tanstack/react-query';
import { Button, Card, Flex, Heading, Text } from '@radix-ui/themes';
import { Link, Navigate } from 'react-router-dom';

import { paths } from '@/config/paths';

import { hasOpenVideoQuestion, interviewQueries, nextUnanswered } from '../api/interview-get';
import { useAnswerUploads } from '../api/answer-uploads';
import { useInterviewParam } from '../components/interview-params';

export function InterviewStartScreen() {
  const candidateId = useInterviewParam('candidateId');
  const { data: interview } = useSuspenseQuery(interviewQueries.detail(candidateId));
  const pending = useAnswerUploads(candidateId).map((upload) => upload.questionId);
  const next = nextUnanswered(interview, pending);

  if (!next) return <Navigate to={paths.candidates.finish.href(candidateId)} replace />;

  const total = interview.questions.length;
  const answered = interview.questions.filter(
    (q) => interview.answeredQuestionIds.includes(q.id) || pending.includes(q.id),
  ).length;

  return (
    <Card size="4">
      <Flex direction="column" gap="4" align="start">
        <Heading as="h1" size="7">
          Interview at {interview.companyName}
        </Heading>
        {interview.jobTitle ? <Text size="4">{interview.jobTitle}</Text> : null}
        <Text as="p" color="gray">
          {total === 1 ? 'There is 1 question.' : `There are ${total} questions.`} Each has a time limit, shown before
          you start it. Video answers need your camera and microphone.
        </Text>
        {answered > 0 ? (
          <Text as="p">
            Welcome back: you have answered {answered} of {total}. You continue where you left off.
          </Text>
        ) : null}
        <Button asChild size="3">
          {/* a video question still to answer: the camera, microphone and connection are checked first (issue 17) */}
          <Link
            to={
              hasOpenVideoQuestion(interview, pending)
                ? paths.candidates.check.href(candidateId)
                : paths.candidates.question.href(candidateId, next.id)
            }
          >
            Start Interview
          </Link>
        </Button>
      </Flex>
    </Card>
  );
}
