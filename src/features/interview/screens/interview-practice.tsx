import { Badge, Button, Card, Flex, Heading, Text } from '@radix-ui/themes';
import { useIntl } from 'react-intl';
import { Link, useNavigate } from 'react-router-dom';

import { paths } from '@/config/paths';

import { useInterviewParam } from '../components/interview-params';
import { InterviewVideoAnswer } from '../components/interview-video-answer';

/** The practice question's answer time, in seconds: about what a real one gives. */
const PRACTICE_TIMEOUT = 60;

/**
 * A practice question (issue 17 point 4): the interview's own recorder and countdown, unlimited takes, each played
 * back from the device's memory. Nothing leaves the device: no staged parts, no stored draft, no answer.
 */
export function InterviewPracticeScreen() {
  const intl = useIntl();
  const candidateId = useInterviewParam('candidateId');
  const navigate = useNavigate();
  const back = paths.candidates.check.href(candidateId);
  return (
    <Card size="3">
      <Flex direction="column" gap="4">
        <Flex direction="column" gap="2" align="start">
          <Badge size="2" color="amber">
            {intl.formatMessage({ id: 'practice.badge' })}
          </Badge>
          <Heading as="h1" size="6">
            {intl.formatMessage({ id: 'practice.title' })}
          </Heading>
          <Text as="p">{intl.formatMessage({ id: 'practice.description' })}</Text>
        </Flex>
        <InterviewVideoAnswer
          practice
          timeout={PRACTICE_TIMEOUT}
          maxTakes={Number.MAX_SAFE_INTEGER}
          // no onRecordingStart: the chunks go nowhere; onTake keeps nothing but the screen's own state
          onTake={() => undefined}
          onSubmit={() => Promise.resolve()}
          onSkip={() => void navigate(back)}
        />
        <Button asChild size="3" variant="soft" style={{ alignSelf: 'start' }}>
          <Link to={back}>{intl.formatMessage({ id: 'practice.back' })}</Link>
        </Button>
      </Flex>
    </Card>
  );
}
