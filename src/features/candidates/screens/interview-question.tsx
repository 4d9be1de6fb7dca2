import { Heading } from '@radix-ui/themes';

export function InterviewQuestionScreen() {
  return <Heading as="h1">Question</Heading>;
}
