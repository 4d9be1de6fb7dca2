import { Heading } from '@radix-ui/themes';

export function UpdatePasswordScreen() {
  return <Heading as="h1">Update Password</Heading>;
}
