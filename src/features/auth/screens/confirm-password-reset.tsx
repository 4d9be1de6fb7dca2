import { Heading } from '@radix-ui/themes';

export function ConfirmPasswordResetScreen() {
  return <Heading as="h1">Set a new password</Heading>;
}
