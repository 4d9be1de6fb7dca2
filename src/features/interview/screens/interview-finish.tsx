import { useSuspenseQuery } from '@tanstack/react-query';
import { Flex, Heading, Text } from '@radix-ui/themes';
import { useIntl } from 'react-intl';

import { useAnswerUploads } from '../api/answer-uploads';
import { interviewQueries } from '../api/interview-get';
import { useInterviewParam } from '../components/interview-params';
import { WithdrawButton } from '../components/interview-withdraw';

/**
 * The end of the interview. The thank-you is said only once every answer is stored on the server (issue 26): until
 * then the screen says the answers are on their way (the upload status above it shows each one, and why it waits),
 * and the thank-you follows by itself when the last one is confirmed. Then the candidate may still withdraw.
 */
export function InterviewFinishScreen() {
  const intl = useIntl();
  const candidateId = useInterviewParam('candidateId');
  const { data: interview } = useSuspenseQuery(interviewQueries.detail(candidateId));
  const unsent = useAnswerUploads(candidateId).filter((upload) => upload.status !== 'done');

  if (unsent.length) {
    const refused = unsent.some((upload) => upload.status === 'failed');
    return (
      <Flex direction="column" align="center" gap="2" py="6">
        <Heading as="h1">{intl.formatMessage({ id: refused ? 'finish.notArrived' : 'finish.sending' })}</Heading>
        <Text color="gray">{intl.formatMessage({ id: refused ? 'finish.keptHere' : 'finish.almostDone' })}</Text>
      </Flex>
    );
  }

  return (
    <Flex direction="column" align="center" gap="2" py="6">
      <Heading as="h1">{intl.formatMessage({ id: 'finish.heading' })}</Heading>
      <Text color="gray">{intl.formatMessage({ id: 'finish.text' })}</Text>
      <Flex mt="6">
        <WithdrawButton candidateKey={candidateId} companyName={interview.companyName} />
      </Flex>
    </Flex>
  );
}
