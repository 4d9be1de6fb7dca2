import { Heading } from '@radix-ui/themes';

export function EditQuestionScreen() {
  return <Heading as="h1">Edit question</Heading>;
}
