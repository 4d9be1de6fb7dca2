import { Flex, Heading, Text } from '@radix-ui/themes';

import { useAnswerUploads } from '../api/answer-uploads';
import { useInterviewParam } from '../components/interview-params';

/**
 * The end of the interview. The thank-you is said only once every answer is stored on the server (issue 26): until
 * then the screen says the answers are on their way (the upload status above it shows each one, and why it waits),
 * and the thank-you follows by itself when the last one is confirmed.
 */
export function InterviewFinishScreen() {
  const candidateId = useInterviewParam('candidateId');
  const unsent = useAnswerUploads(candidateId).filter((upload) => upload.status !== 'done');

  if (unsent.length) {
    const refused = unsent.some((upload) => upload.status === 'failed');
    return (
      <Flex direction="column" align="center" gap="2" py="6">
        <Heading as="h1">{refused ? 'Some of your answers have not arrived' : 'Sending your answers'}</Heading>
        <Text color="gray">
          {refused
            ? 'They are kept on this device.'
            : 'Almost done: your interview is complete once every answer has arrived.'}
        </Text>
      </Flex>
    );
  }

  return (
    <Flex direction="column" align="center" gap="2" py="6">
      <Heading as="h1">Thank you</Heading>
      <Text color="gray">We&apos;ll get back to you soon</Text>
    </Flex>
  );
}
