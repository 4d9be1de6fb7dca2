import { useSuspenseQuery } from '@tanstack/react-query';
import { Button, Callout, Card, Flex, Heading, Text } from '@radix-ui/themes';
import { useId, useState } from 'react';
import { useIntl, type IntlShape } from 'react-intl';
import { Navigate, useNavigate } from 'react-router-dom';

import { paths } from '@/config/paths';

import { useGiveConsent } from '../api/give-consent';
import { hasOpenVideoQuestion, interviewQueries, nextUnanswered, totalAnswerMinutes } from '../api/interview-get';
import { useAnswerUploads } from '../api/answer-uploads';
import { useInterviewParam } from '../components/interview-params';
import { InterviewPrivacyLink } from '../components/interview-privacy-link';
import { retentionText } from '../components/interview-retention';
import { WithdrawButton } from '../components/interview-withdraw';
import { formatMoment } from '../i18n/format';

/** "about 9 minutes" in plain words; under a minute of answers is "about 1 minute". */
export function aboutMinutes(intl: IntlShape, minutes: number): string {
  return intl.formatMessage({ id: 'start.aboutMinutes' }, { minutes: Math.max(1, minutes) });
}

export function InterviewStartScreen() {
  const intl = useIntl();
  const candidateId = useInterviewParam('candidateId');
  const { data: interview } = useSuspenseQuery(interviewQueries.detail(candidateId));
  const pending = useAnswerUploads(candidateId).map((upload) => upload.questionId);
  const next = nextUnanswered(interview, pending);
  const navigate = useNavigate();
  const consent = useGiveConsent(candidateId);
  const alreadyAgreed = Boolean(interview.consentedAt);
  const [agreed, setAgreed] = useState(alreadyAgreed);
  const agreeId = useId();

  if (!next) return <Navigate to={paths.candidates.finish.href(candidateId)} replace />;

  const total = interview.questions.length;
  const answered = interview.questions.filter(
    (q) => interview.answeredQuestionIds.includes(q.id) || pending.includes(q.id),
  ).length;
  const company = interview.companyName;
  const deadline = interview.deadline ? formatMoment(intl, interview.deadline) : '';
  const retention = retentionText(intl, interview);
  // a video question still to answer: the camera, microphone and connection are checked first (issue 17)
  const firstStep = hasOpenVideoQuestion(interview, pending)
    ? paths.candidates.check.href(candidateId)
    : paths.candidates.question.href(candidateId, next.id);

  const start = () => {
    if (alreadyAgreed) {
      void navigate(firstStep);
      return;
    }
    consent.mutate(undefined, { onSuccess: () => void navigate(firstStep) });
  };

  return (
    <Card size="4">
      <Flex direction="column" gap="4" align="start">
        <Heading as="h1" size="7">
          {intl.formatMessage({ id: 'start.heading' }, { company })}
        </Heading>
        {interview.jobTitle ? <Text size="4">{interview.jobTitle}</Text> : null}
        <Text as="p" color="gray">
          {interview.questions.every((q) => q.untimed)
            ? intl.formatMessage({ id: 'start.overviewUntimed' }, { total })
            : intl.formatMessage(
                { id: 'start.overview' },
                { total, duration: aboutMinutes(intl, totalAnswerMinutes(interview)) },
              )}
        </Text>
        {deadline ? (
          <Text as="p" weight="medium" data-testid="interview-deadline">
            {intl.formatMessage({ id: 'start.deadline' }, { deadline })}
          </Text>
        ) : null}
        {interview.welcomeMessage ? (
          // plain text with its line breaks, never HTML
          <Text as="p" data-testid="welcome-message" style={{ whiteSpace: 'pre-wrap' }}>
            {interview.welcomeMessage}
          </Text>
        ) : null}
        {answered > 0 ? <Text as="p">{intl.formatMessage({ id: 'start.welcomeBack' }, { answered, total })}</Text> : null}

        <Flex direction="column" gap="2" asChild>
          <section aria-labelledby={`${agreeId}-heading`} data-testid="consent">
            <Heading as="h2" size="4" id={`${agreeId}-heading`}>
              {intl.formatMessage({ id: 'consent.heading' })}
            </Heading>
            <Text as="p">{intl.formatMessage({ id: 'consent.seenBy' }, { company })}</Text>
            {retention ? <Text as="p">{retention}</Text> : null}
            <Text as="p">{intl.formatMessage({ id: 'consent.withdrawAnyTime' })}</Text>
            <InterviewPrivacyLink url={interview.privacyUrl} company={company} />
            <Text as="label" htmlFor={agreeId} size="3">
              <Flex gap="2" align="center">
                <input
                  id={agreeId}
                  type="checkbox"
                  checked={agreed}
                  disabled={alreadyAgreed || consent.isPending}
                  onChange={(event) => setAgreed(event.target.checked)}
                  style={{ width: 18, height: 18, margin: 0 }}
                />
                {intl.formatMessage({ id: 'consent.agree' })}
              </Flex>
            </Text>
          </section>
        </Flex>

        {consent.isError ? (
          <Callout.Root color="red" role="alert">
            <Callout.Text>{intl.formatMessage({ id: 'errors.generic' })}</Callout.Text>
          </Callout.Root>
        ) : null}
        <Button size="3" disabled={!agreed || consent.isPending} onClick={start}>
          {intl.formatMessage({ id: 'start.button' })}
        </Button>
        <WithdrawButton candidateKey={candidateId} companyName={company} />
      </Flex>
    </Card>
  );
}
