import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { Callout, Card, Flex, Heading, Spinner, Text } from '@radix-ui/themes';
import { useEffect, useState } from 'react';
import { useIntl } from 'react-intl';
import { Navigate, useNavigate } from 'react-router-dom';

import { paths } from '@/config/paths';

import {
  cancelInterviewReads,
  interviewQueries,
  nextUnanswered,
  nextUnansweredAfter,
  type Interview,
  type InterviewQuestion,
} from '../api/interview-get';
import { answerUploads, submitTextAnswer, useAnswerUploads } from '../api/answer-uploads';
import { offeredTakeLabel, useKeptTake } from '../api/kept-takes';
import { openedOnDeviceClock, openQuestion } from '../api/open-question';
import { CLOSING_CODES, refusalCode } from '../api/refusals';
import { useVideoDrafts } from '../api/video-drafts';
import { InterviewIntro } from '../components/interview-intro';
import { useInterviewParam } from '../components/interview-params';
import { InterviewTextAnswer } from '../components/interview-text-answer';
import { InterviewVideoAnswer } from '../components/interview-video-answer';

/**
 * The finish screen's code ("Sending your answers"), fetched while a question shows: after the last answer the server
 * that serves the app may be down (a restart, a crash) while the answer waits to be sent, and a screen fetched only
 * then failed to load, showing an error page instead of the upload's progress (seen in the server-crash end-to-end
 * test on a busy machine).
 */
const loadFinishScreen = () => import('./interview-finish');

export function InterviewQuestionScreen() {
  const candidateId = useInterviewParam('candidateId');
  const questionId = useInterviewParam('questionId');
  const { data: interview } = useSuspenseQuery(interviewQueries.detail(candidateId));
  const pending = useAnswerUploads(candidateId).map((upload) => upload.questionId);
  useEffect(() => {
    // a failure here is the route's to meet again, when the screen is shown
    loadFinishScreen().catch(() => undefined);
  }, []);

  // Nothing is recorded before the candidate agreed on the start screen (issue 17; the server refuses it too).
  if (!interview.consentedAt) return <Navigate to={paths.candidates.start.href(candidateId)} replace />;
  const question = interview.questions.find((q) => q.id === questionId);
  const answered = interview.answeredQuestionIds.includes(questionId) || pending.includes(questionId);
  if (!question || answered) {
    // A submitted answer cannot be changed: go on to the next question still open.
    const next = question ? nextUnansweredAfter(interview, pending, question.id) : nextUnanswered(interview, pending);
    return (
      <Navigate
        to={next ? paths.candidates.question.href(candidateId, next.id) : paths.candidates.finish.href(candidateId)}
        replace
      />
    );
  }
  return <QuestionFlow key={question.id} interview={interview} question={question} />;
}

function QuestionFlow({ interview, question }: { interview: Interview; question: InterviewQuestion }) {
  const intl = useIntl();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  /** When the question was first opened, on this device's clock; null until the server recorded the opening. */
  const [openedAt, setOpenedAt] = useState<number | null>(null);
  const viewing = openedAt !== null;
  // the link's key (the route parameter), never `interview.candidateId`: that is the record id, which is no credential
  const candidateId = useInterviewParam('candidateId');
  const position = interview.questions.indexOf(question) + 1;
  const total = interview.questions.length;
  const drafts = useVideoDrafts(candidateId, question.id);
  // a take recorded on an earlier visit and never submitted, looked for once the answer form opens (issue 22)
  const kept = useKeptTake(candidateId, question, viewing, drafts);

  /** The next question after this one that is still open (a skipped question stays behind), else the end. */
  const goOn = () => {
    const pending = answerUploads.getSnapshot().map((upload) => upload.questionId);
    const next = nextUnansweredAfter(interview, pending, question.id);
    void navigate(next ? paths.candidates.question.href(candidateId, next.id) : paths.candidates.finish.href(candidateId));
  };

  // The server records the first opening and its time runs from then (issue 17): asked again on every visit, so a
  // reload, the back button or a reopened link resumes with what is left, never a fresh time.
  const open = useMutation({
    mutationFn: () => openQuestion(candidateId, question.id),
    onSuccess: async (opened) => {
      setOpenedAt(openedOnDeviceClock(opened, Date.now()));
      // the back button or a later visit in this page knows it was opened (its intro says the time kept running);
      // a read on its way from before the opening would undo it: cancelled first
      await cancelInterviewReads(queryClient, candidateId);
      queryClient.setQueryData(interviewQueries.detail(candidateId).queryKey, (old: Interview | undefined) =>
        old ? { ...old, questions: old.questions.map((q) => (q.id === question.id ? { ...q, openedAt: opened.openedAt } : q)) } : old,
      );
    },
    onError: (error) => {
      const code = refusalCode(error);
      // closed meanwhile: the interview is read again and the layout shows the closed page
      if (code && CLOSING_CODES.includes(code)) void queryClient.invalidateQueries({ queryKey: interviewQueries.detail(candidateId).queryKey });
      else console.error('The question could not be opened', error);
    },
  });
  const { mutate: openNow } = open;

  if (!viewing) {
    return (
      <Flex direction="column" gap="3">
        {open.isError && !CLOSING_CODES.includes(refusalCode(open.error) ?? 'time_over') ? (
          <Callout.Root color="red" role="alert">
            <Callout.Text>{intl.formatMessage({ id: 'errors.generic' })}</Callout.Text>
          </Callout.Root>
        ) : null}
        <InterviewIntro
          question={question}
          position={position}
          total={total}
          opening={open.isPending}
          // opened on an earlier visit: its time kept running, and 'View question' goes on with what is left
          resumed={Boolean(question.openedAt) && !question.untimed}
          onView={() => openNow()}
        />
      </Flex>
    );
  }

  return (
    <Card size="3">
      <Flex direction="column" gap="4">
        <Flex direction="column" gap="2">
          <Text size="2" color="gray">
            {intl.formatMessage({ id: 'question.position' }, { position, total })}
          </Text>
          <Heading as="h1" size="6">
            {question.title}
          </Heading>
          <Text as="p" style={{ whiteSpace: 'pre-wrap' }}>
            {question.description}
          </Text>
        </Flex>
        {question.kind === 'video' && kept.status === 'loading' ? (
          <Flex align="center" justify="center" gap="2" py="9" role="status">
            <Spinner /> <Text color="gray">{intl.formatMessage({ id: 'question.lookingForRecording' })}</Text>
          </Flex>
        ) : question.kind === 'video' ? (
          <InterviewVideoAnswer
            timeout={question.timeout}
            // a question without one (a server before issue 17) is started by the candidate, as before
            preparation={question.preparation}
            openedAt={openedAt}
            untimed={question.untimed ?? false}
            maxTakes={question.takes}
            takesUsed={question.takesUsed ?? 0}
            kept={kept.offered ? { take: kept.offered.take, label: offeredTakeLabel(intl, kept.offered) } : null}
            onSkip={goOn}
            // Each take goes to the server in parts while it is recorded, so submitting it leaves little to send.
            onRecordingStart={() => drafts.startTake()}
            // The take is stored while the candidate watches it, so submitting it does not wait for a large write.
            onTake={(take) => drafts.keep(take)}
            onTakeFailed={() => drafts.dropRecording()}
            onSubmit={async (take) => {
              // Once stored, the answer counts as given and the guard above moves on while it uploads.
              await drafts.submit(take);
            }}
          />
        ) : (
          <InterviewTextAnswer
            timeout={question.timeout}
            openedAt={openedAt}
            untimed={question.untimed ?? false}
            onSkip={goOn}
            onSubmit={async (content) => {
              await submitTextAnswer({ candidateId, questionId: question.id, content });
            }}
          />
        )}
      </Flex>
    </Card>
  );
}
