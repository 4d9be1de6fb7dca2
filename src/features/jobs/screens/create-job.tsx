import { Heading } from '@radix-ui/themes';

export function CreateJobScreen() {
  return <Heading as="h1">Create job</Heading>;
}
