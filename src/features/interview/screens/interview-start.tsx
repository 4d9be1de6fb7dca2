import { useSuspenseQuery } from '@tanstack/react-query';
import { Button, Callout, Card, Flex, Heading, Link as ThemeLink, Text } from '@radix-ui/themes';
import { useId, useState } from 'react';
import { Navigate, useNavigate } from 'react-router-dom';

import { paths } from '@/config/paths';
import { GENERIC_ERROR_MESSAGE } from '@/lib/errors';

import { useGiveConsent } from '../api/give-consent';
import { hasOpenVideoQuestion, interviewQueries, nextUnanswered, totalAnswerMinutes } from '../api/interview-get';
import { useAnswerUploads } from '../api/answer-uploads';
import { localDate } from '../components/interview-closed';
import { useInterviewParam } from '../components/interview-params';

/** "about 9 minutes" in plain words; under a minute of answers is "about 1 minute". */
export function aboutMinutes(minutes: number): string {
  const whole = Math.max(1, minutes);
  return `about ${whole} ${whole === 1 ? 'minute' : 'minutes'}`;
}

export function InterviewStartScreen() {
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
  const deadline = interview.deadline ? localDate(interview.deadline, true) : '';
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
          Interview at {company}
        </Heading>
        {interview.jobTitle ? <Text size="4">{interview.jobTitle}</Text> : null}
        {interview.questions.every((q) => q.untimed) ? (
          <Text as="p" color="gray">
            {total === 1 ? 'There is 1 question' : `There are ${total} questions`}. Take the time you need: there is no
            time limit. Video answers need your camera and microphone.
          </Text>
        ) : (
          <Text as="p" color="gray">
            {total === 1 ? 'There is 1 question' : `There are ${total} questions`}, {aboutMinutes(totalAnswerMinutes(interview))} of
            answers in all. Each has a time limit, shown before you start it. Video answers need your camera and microphone.
          </Text>
        )}
        {deadline ? (
          <Text as="p" weight="medium" data-testid="interview-deadline">
            Please finish by {deadline}.
          </Text>
        ) : null}
        {interview.welcomeMessage ? (
          // plain text with its line breaks, never HTML
          <Text as="p" data-testid="welcome-message" style={{ whiteSpace: 'pre-wrap' }}>
            {interview.welcomeMessage}
          </Text>
        ) : null}
        {answered > 0 ? (
          <Text as="p">
            Welcome back: you have answered {answered} of {total}. You continue where you left off.
          </Text>
        ) : null}

        <Flex direction="column" gap="2" asChild>
          <section aria-labelledby={`${agreeId}-heading`}>
            <Heading as="h2" size="4" id={`${agreeId}-heading`}>
              Before you start
            </Heading>
            <Text as="p">Your answers will be seen by the hiring team at {company}.</Text>
            {/* Retention (issue 19): how long the answers are kept is said here once the company has a retention
                period; there is none yet, so nothing is claimed. */}
            {interview.privacyUrl ? (
              <Text as="p">
                <ThemeLink href={interview.privacyUrl} target="_blank" rel="noopener noreferrer">
                  Read {company}&apos;s privacy policy
                </ThemeLink>
              </Text>
            ) : null}
            <Text as="label" htmlFor={agreeId} size="3">
              <Flex gap="2" align="center">
                <input
                  id={agreeId}
                  type="checkbox"
                  checked={agreed}
                  disabled={alreadyAgreed || consent.isPending}
                  onChange={(event) => setAgreed(event.target.checked)}
                  style={{ width: 18, height: 18 }}
                />
                I agree
              </Flex>
            </Text>
          </section>
        </Flex>

        {consent.isError ? (
          <Callout.Root color="red" role="alert">
            <Callout.Text>{GENERIC_ERROR_MESSAGE}</Callout.Text>
          </Callout.Root>
        ) : null}
        <Button size="3" disabled={!agreed || consent.isPending} onClick={start}>
          Start Interview
        </Button>
      </Flex>
    </Card>
  );
}
