import { useSuspenseQuery } from '@tanstack/react-query';
import { Card, Flex, Heading, Spinner, Text } from '@radix-ui/themes';
import { useState } from 'react';
import { Navigate, useNavigate } from 'react-router-dom';

import { useToaster } from '@/components/toaster';
import { paths } from '@/config/paths';

import {
  interviewQueries,
  nextUnanswered,
  nextUnansweredAfter,
  type Interview,
  type InterviewQuestion,
} from '../api/interview-get';
import { answerUploads, submitTextAnswer, useAnswerUploads } from '../api/answer-uploads';
import { offeredTakeLabel, useKeptTake } from '../api/kept-takes';
import { useVideoDrafts } from '../api/video-drafts';
import { InterviewIntro } from '../components/interview-intro';
import { useInterviewParam } from '../components/interview-params';
import { InterviewTextAnswer } from '../components/interview-text-answer';
import { InterviewVideoAnswer } from '../components/interview-video-answer';

export function InterviewQuestionScreen() {
  const candidateId = useInterviewParam('candidateId');
  const questionId = useInterviewParam('questionId');
  // The only interview screen that raises toasts (a failed save); the start screen goes without sonner.
  useToaster();
  const { data: interview } = useSuspenseQuery(interviewQueries.detail(candidateId));
  const pending = useAnswerUploads(candidateId).map((upload) => upload.questionId);

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
  const navigate = useNavigate();
  const [viewing, setViewing] = useState(false);
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

  if (!viewing) {
    return <InterviewIntro question={question} position={position} total={total} onView={() => setViewing(true)} />;
  }

  return (
    <Card size="3">
      <Flex direction="column" gap="4">
        <Flex direction="column" gap="2">
          <Text size="2" color="gray">
            Question {position} of {total}
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
            <Spinner /> <Text color="gray">Looking for your recording…</Text>
          </Flex>
        ) : question.kind === 'video' ? (
          <InterviewVideoAnswer
            timeout={question.timeout}
            maxTakes={question.takes}
            takesUsed={question.takesUsed ?? 0}
            kept={kept.offered ? { take: kept.offered.take, label: offeredTakeLabel(kept.offered) } : null}
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
