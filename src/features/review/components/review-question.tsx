import { Callout, Flex, Heading, Text } from '@radix-ui/themes';

import { firstOf, type ReviewAnswer, type ReviewQuestion } from '../api/review-candidate';
import type { RatingSummary } from '../api/review-ratings';

import { ReviewAnswerCard } from './review-answer';

type ReviewQuestionSectionProps = {
  position: number;
  question: ReviewQuestion;
  answers: ReviewAnswer[];
  ratingOf: (answerId: string) => RatingSummary;
  onRate: (answerId: string, stars: number | null) => void;
};

/**
 * A job question with the candidate's answers to it, or 'No answer'. Its title is the one the candidate was asked
 * (the answer's snapshot, issue 16), not the question's current one.
 */
export function ReviewQuestionSection({ position, question, answers, ratingOf, onRate }: ReviewQuestionSectionProps) {
  const kind = firstOf(question.expand?.video_questions_via_question)
    ? 'video'
    : firstOf(question.expand?.text_questions_via_question)
      ? 'text'
      : null;

  return (
    <Flex asChild direction="column" gap="3">
      <section aria-labelledby={`question-${question.id}`}>
        <Heading as="h2" size="4" id={`question-${question.id}`}>
          {position}. {answers[0]?.questionTitle || question.title}
        </Heading>
        {kind === null && (
          <Callout.Root color="red" role="alert" size="1">
            <Callout.Text>Invalid question type</Callout.Text>
          </Callout.Root>
        )}
        {answers.length === 0 ? (
          <Text color="gray">No answer</Text>
        ) : (
          answers.map((answer) => (
            <ReviewAnswerCard key={answer.id} answer={answer} rating={ratingOf(answer.id)} onRate={onRate} />
          ))
        )}
      </section>
    </Flex>
  );
}
