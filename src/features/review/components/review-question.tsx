import { Callout, Flex, Heading, Text } from '@radix-ui/themes';

import { firstOf, type ReviewAnswer, type ReviewQuestion } from '../api/review-candidate';
import type { RatingSummary } from '../api/review-ratings';

import { ReviewAnswerCard } from './review-answer';

type ReviewQuestionSectionProps = {
  position: number;
  question: ReviewQuestion;
  answers: ReviewAnswer[];
  /** the job's language, the transcripts' */
  language: string;
  ratingOf: (answerId: string) => RatingSummary;
  onRate: (answerId: string, stars: number | null) => void;
};

/**
 * A job question with the candidate's answers to it, or 'No answer'. Its title is the one the candidate was asked
 * (the answer's snapshot, issue 16), not the question's current one.
 */
export function ReviewQuestionSection({ position, question, answers, language, ratingOf, onRate }: ReviewQuestionSectionProps) {
  const kind = firstOf(question.expand?.video_questions_via_question)
    ? 'video'
    : firstOf(question.expand?.text_questions_via_question)
      ? 'text'
      : null;

  return (
    <Flex asChild direction="column" gap="3">
      <section aria-labelledby={`question-${question.id}`}>
        <Heading as="h2" size="4" id={`question-${question.id}`}>
          {position}. {askedTitle(question, answers)}
        </Heading>
        {kind === null && (
          <Callout.Root color="red" role="alert" size="1">
            <Callout.Text>Invalid question type</Callout.Text>
          </Callout.Root>
        )}
        {answers.length === 0 ? (
          <Text color="gray">No answer</Text>
        ) : (
          answers.map((answer, index) => (
            <ReviewAnswerCard
              key={answer.id}
              answer={answer}
              label={answerLabel(position, askedTitle(question, [answer]), index, answers.length)}
              language={language}
              rating={ratingOf(answer.id)}
              onRate={onRate}
            />
          ))
        )}
      </section>
    </Flex>
  );
}

/** The question as the candidate was asked it: the answer's snapshot, else the question's title. */
export function askedTitle(question: ReviewQuestion, answers: readonly ReviewAnswer[]): string {
  return answers[0]?.questionTitle || question.title;
}

/** An answer card's accessible name: "Answer to question 2: Why us?" ("Answer 2 of 2 to …" when there are several). */
export function answerLabel(position: number, title: string, index = 0, count = 1): string {
  const which = count > 1 ? `Answer ${index + 1} of ${count}` : 'Answer';
  return `${which} to question ${position}: ${title}`;
}
