import { Button, Card, Flex, Heading, Text } from '@radix-ui/themes';

import type { InterviewQuestion } from '../api/interview-get';

import { timeInWords } from './interview-countdown';

type Props = {
  question: InterviewQuestion;
  position: number;
  total: number;
  onView: () => void;
  /** 'View question' was pressed and the server is recording the opening. */
  opening?: boolean;
  /** The question was opened on an earlier visit: its time kept running since. */
  resumed?: boolean;
};

/** Said instead of the times of a question opened on an earlier visit (a reload, the back button, the link again). */
export const RESUMED_TEXT = 'You opened this question before. Its time kept running: you continue with the time that is left.';

/**
 * How the question is answered and the time it gives, in plain words: video or text, the preparation before a
 * video recording starts, and the answer time. Unlimited time says no limits at all.
 */
export function answerTimeText(question: InterviewQuestion): string {
  const video = question.kind === 'video';
  if (question.untimed) {
    return video
      ? 'Take the time you need to prepare, then start recording when you are ready. There is no time limit.'
      : 'There is no time limit: take the time you need.';
  }
  const answer = timeInWords(question.timeout);
  if (!video) return `You have ${answer} to write your answer, from when you view the question.`;
  const preparation = question.preparation ?? 0;
  if (preparation > 0) return `${timeInWords(preparation)} to prepare, then ${answer} to record. Recording starts by itself.`;
  return `Recording starts as soon as you view the question, and you have ${answer} to record.`;
}

/** Before the answer form: the question only when the manager allowed a preview, and always how and how long to answer. */
export function InterviewIntro({ question, position, total, onView, opening = false, resumed = false }: Props) {
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
        <Text as="p" weight="medium" data-testid="answer-kind">
          {question.kind === 'video' ? "You'll answer on video" : "You'll type your answer"}
        </Text>
        <Text as="p" data-testid="answer-time">
          {resumed ? RESUMED_TEXT : answerTimeText(question)}
        </Text>
        <Button size="3" onClick={onView} loading={opening}>
          View question
        </Button>
      </Flex>
    </Card>
  );
}
