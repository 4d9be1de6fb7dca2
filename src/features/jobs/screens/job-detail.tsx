import { Heading } from '@radix-ui/themes';

export function JobDetailScreen() {
  return <Heading as="h1">Job</Heading>;
}
