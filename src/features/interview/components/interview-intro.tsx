import { Button, Card, Flex, Heading, Text } from '@radix-ui/themes';

import type { InterviewQuestion } from '../api/interview-get';

type Props = {
  question: InterviewQuestion;
  position: number;
  total: number;
  onView: () => void;
};

/** Before the answer form: the question only when the manager allowed a preview, and always the time allowed. */
export function InterviewIntro({ question, position, total, onView }: Props) {
  return (
    <Card size="3">
      <Flex direction="column" gap="3" align="start">
        <Text size="2" color="gray">
          Question {position} of {total}
        </Text>
        {question.canPreview ? (
          <>
            <Heading as="h1" size="6">
              {question.title}
            </Heading>
            <Text as="p" style={{ whiteSpace: 'pre-wrap' }}>
              {question.description}
            </Text>
          </>
        ) : null}
        <Text as="p" weight="medium">
          You&apos;ve {question.timeout} seconds to answer
        </Text>
        <Button size="3" onClick={onView}>
          View question
        </Button>
      </Flex>
    </Card>
  );
}
