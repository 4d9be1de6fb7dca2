import { Button, Card, Flex, Heading, Text } from '@radix-ui/themes';
import { useIntl, type IntlShape } from 'react-intl';

import type { InterviewQuestion } from '../api/interview-get';
import { durationInWords } from '../i18n/format';

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

/**
 * The spec's own sentence comes first, the timeout in seconds as it writes it ("You've 90 seconds to answer"), in
 * every timed variant (decisions.md); unlimited time says no limit instead, and a question opened before says its time
 * kept running.
 */
export function answerTimeText(intl: IntlShape, question: InterviewQuestion, resumed = false): string {
  if (resumed) return intl.formatMessage({ id: 'intro.resumed' });
  if (question.untimed) return intl.formatMessage({ id: 'intro.untimed' });
  return intl.formatMessage({ id: 'intro.timeout' }, { timeout: question.timeout });
}

/** Then how the question is answered: typed or on video, and for video the preparation before recording starts. */
export function answerKindText(intl: IntlShape, question: InterviewQuestion, resumed = false): string {
  if (question.kind !== 'video') {
    if (resumed || question.untimed) return intl.formatMessage({ id: 'intro.kind.text' });
    return intl.formatMessage({ id: 'intro.kind.textTimed' });
  }
  if (resumed) return intl.formatMessage({ id: 'intro.kind.video' });
  if (question.untimed) return intl.formatMessage({ id: 'intro.kind.videoUntimed' });
  const preparation = question.preparation ?? 0;
  if (preparation > 0) {
    return intl.formatMessage({ id: 'intro.kind.videoPreparation' }, { preparation: durationInWords(intl, preparation) });
  }
  return intl.formatMessage({ id: 'intro.kind.videoAtOnce' });
}

/** Before the answer form: the question only when the manager allowed a preview, and always how and how long to answer. */
export function InterviewIntro({ question, position, total, onView, opening = false, resumed = false }: Props) {
  const intl = useIntl();
  return (
    <Card size="3">
      <Flex direction="column" gap="3" align="start">
        <Text size="2" color="gray">
          {intl.formatMessage({ id: 'question.position' }, { position, total })}
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
        <Text as="p" weight="medium" data-testid="answer-time">
          {answerTimeText(intl, question, resumed)}
        </Text>
        <Text as="p" data-testid="answer-kind">
          {answerKindText(intl, question, resumed)}
        </Text>
        <Button size="3" onClick={onView} loading={opening}>
          {intl.formatMessage({ id: 'intro.view' })}
        </Button>
      </Flex>
    </Card>
  );
}
