import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Flex, Text, TextArea } from '@radix-ui/themes';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useIntl } from 'react-intl';

import { toast } from '@/components/toast';

import { isMessageKey } from '../i18n/message-keys';

import { TEXT_ANSWER_MAX, textAnswerSchema, type TextAnswerInput, type TextAnswerValues } from '../schemas';

import { Countdown, useCountdown } from './interview-countdown';
import { TimeUp } from './interview-time-up';

import { FormDevtools } from '@/components/form-devtools';

type Props = {
  timeout: number;
  /** When the question was first opened, on this device's clock: the countdown runs from then (a reload resumes it). */
  openedAt?: number;
  /** Unlimited time: no countdown. */
  untimed?: boolean;
  onSubmit: (content: string) => Promise<void>;
  onSkip: () => void;
};

export function InterviewTextAnswer({ timeout, openedAt, untimed = false, onSubmit, onSkip }: Props) {
  const intl = useIntl();
  const [timeUp, setTimeUp] = useState(false);
  const [done, setDone] = useState(false);
  const form = useForm<TextAnswerInput, unknown, TextAnswerValues>({
    resolver: zodResolver(textAnswerSchema),
    defaultValues: { content: '' },
  });
  const { isSubmitting, errors } = form.formState;
  const remaining = useCountdown(timeout, !untimed && !timeUp && !done, openedAt);
  const length = form.watch('content').length;
  // the schema's messages are keys (schemas.ts)
  const fieldError = (message: string | undefined) =>
    message
      ? intl.formatMessage({ id: isMessageKey(intl.messages, message) ? message : 'errors.generic' }, { max: TEXT_ANSWER_MAX })
      : null;

  const submit = form.handleSubmit(async ({ content }) => {
    try {
      await onSubmit(content);
      setDone(true);
    } catch {
      toast.error(intl.formatMessage({ id: 'question.notSaved' }));
    }
  });

  // At 0 a non-empty answer goes in by itself; with nothing typed the time is simply up (also on a reload after the
  // time ran out: the countdown starts at 0).
  useEffect(() => {
    if (untimed || remaining > 0 || timeUp || done) return;
    if (form.getValues('content').trim()) void submit();
    else setTimeUp(true);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only the countdown reaching 0 triggers this
  }, [remaining]);

  if (timeUp) return <TimeUp onContinue={onSkip} />;

  return (
    <form onSubmit={submit} noValidate>
      <Flex direction="column" gap="3">
        <Flex justify="between" align="center">
          <Text as="label" htmlFor="answer-content" weight="medium">
            {intl.formatMessage({ id: 'textAnswer.label' })}
          </Text>
          {untimed ? null : <Countdown remaining={remaining} />}
        </Flex>
        <TextArea
          id="answer-content"
          size="3"
          rows={8}
          autoFocus
          aria-invalid={errors.content ? true : undefined}
          aria-describedby="answer-count answer-error"
          disabled={isSubmitting || done}
          {...form.register('content')}
        />
        <Flex justify="between" gap="3">
          <Text id="answer-error" size="2" color="red">
            {fieldError(errors.content?.message)}
          </Text>
          <Text id="answer-count" size="2" color={length > TEXT_ANSWER_MAX ? 'red' : 'gray'} aria-live="polite">
            {intl.formatMessage({ id: 'textAnswer.count' }, { length, max: TEXT_ANSWER_MAX })}
          </Text>
        </Flex>
        <Flex>
          <Button size="3" type="submit" loading={isSubmitting}>
            {intl.formatMessage({ id: 'question.submit' })}
          </Button>
        </Flex>
      </Flex>
      <FormDevtools control={form.control} />
    </form>
  );
}
