import { Badge, Button, Card, Flex, Heading, Text } from '@radix-ui/themes';
import { Link, useNavigate } from 'react-router-dom';

import { paths } from '@/config/paths';

import { useInterviewParam } from '../components/interview-params';
import { InterviewVideoAnswer } from '../components/interview-video-answer';

export const PRACTICE_QUESTION = {
  title: 'What did you enjoy most last week?',
  description: 'Answer in a few sentences, as you would in the interview. Then watch your take and try again as often as you like.',
  timeout: 60,
};

/**
 * A practice question (issue 17 point 4): the interview's own recorder and countdown, unlimited takes, each played
 * back from the device's memory. Nothing leaves the device: no staged parts, no stored draft, no answer.
 */
export function InterviewPracticeScreen() {
  const candidateId = useInterviewParam('candidateId');
  const navigate = useNavigate();
  const back = paths.candidates.check.href(candidateId);
  return (
    <Card size="3">
      <Flex direction="column" gap="4">
        <Flex direction="column" gap="2" align="start">
          <Badge size="2" color="amber">
            Practice — not sent to the company
          </Badge>
          <Heading as="h1" size="6">
            {PRACTICE_QUESTION.title}
          </Heading>
          <Text as="p">{PRACTICE_QUESTION.description}</Text>
        </Flex>
        <InterviewVideoAnswer
          practice
          timeout={PRACTICE_QUESTION.timeout}
          maxTakes={Number.MAX_SAFE_INTEGER}
          // no onRecordingStart: the chunks go nowhere; onTake keeps nothing but the screen's own state
          onTake={() => undefined}
          onSubmit={() => Promise.resolve()}
          onSkip={() => void navigate(back)}
        />
        <Button asChild size="3" variant="soft" style={{ alignSelf: 'start' }}>
          <Link to={back}>Back to the interview</Link>
        </Button>
      </Flex>
    </Card>
  );
}
