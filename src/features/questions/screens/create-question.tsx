import { Heading } from '@radix-ui/themes';

export function CreateQuestionScreen() {
  return <Heading as="h1">New question</Heading>;
}
