import { Heading } from '@radix-ui/themes';

export function UpdateEmailScreen() {
  return <Heading as="h1">Update Email</Heading>;
}
