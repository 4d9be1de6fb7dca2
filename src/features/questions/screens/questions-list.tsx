import { Heading } from '@radix-ui/themes';

export function QuestionsListScreen() {
  return <Heading as="h1">Questions</Heading>;
}
