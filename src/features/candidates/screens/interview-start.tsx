import { Heading } from '@radix-ui/themes';

export function InterviewStartScreen() {
  return <Heading as="h1">Interview</Heading>;
}
