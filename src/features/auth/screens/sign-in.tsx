import { Heading } from '@radix-ui/themes';

export function SignInScreen() {
  return <Heading as="h1">Sign In</Heading>;
}
