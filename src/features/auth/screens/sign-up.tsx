import { Heading } from '@radix-ui/themes';

export function SignUpScreen() {
  return <Heading as="h1">Sign Up</Heading>;
}
