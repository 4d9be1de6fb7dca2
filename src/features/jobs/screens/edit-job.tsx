import { Heading } from '@radix-ui/themes';

export function EditJobScreen() {
  return <Heading as="h1">Edit job</Heading>;
}
