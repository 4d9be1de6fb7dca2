import { Heading } from '@radix-ui/themes';

export function JobsListScreen() {
  return <Heading as="h1">Jobs</Heading>;
}
