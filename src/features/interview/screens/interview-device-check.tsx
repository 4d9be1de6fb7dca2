import { useSuspenseQuery } from '@tanstack/react-query';
import { Button, Card } from '@radix-ui/themes';
import { FormattedMessage } from 'react-intl';
import { Link, Navigate, useNavigate } from 'react-router-dom';

import { paths } from '@/config/paths';

import { hasOpenVideoQuestion, interviewQueries, nextUnanswered } from '../api/interview-get';
import { useAnswerUploads } from '../api/answer-uploads';
import { useInterviewParam } from '../components/interview-params';
import { InterviewDeviceCheck } from '../device-check/interview-device-check';

/**
 * The device and connection check between 'Start Interview' and the first question, for a job
 * with a video question still to answer; a job of text questions only goes straight on.
 */
export function InterviewDeviceCheckScreen() {
  const candidateId = useInterviewParam('candidateId');
  const navigate = useNavigate();
  const { data: interview } = useSuspenseQuery(interviewQueries.detail(candidateId));
  const pending = useAnswerUploads(candidateId).map((upload) => upload.questionId);
  const next = nextUnanswered(interview, pending);

  if (!next) return <Navigate to={paths.candidates.finish.href(candidateId)} replace />;
  if (!hasOpenVideoQuestion(interview, pending)) {
    return <Navigate to={paths.candidates.question.href(candidateId, next.id)} replace />;
  }

  return (
    <Card size="3">
      <InterviewDeviceCheck
        candidateKey={candidateId}
        onContinue={() => void navigate(paths.candidates.question.href(candidateId, next.id))}
        practice={
          <Button asChild size="3" variant="soft">
            <Link to={paths.candidates.practice.href(candidateId)}>
              <FormattedMessage id="deviceCheck.practice" />
            </Link>
          </Button>
        }
      />
    </Card>
  );
}
