import { Heading } from '@radix-ui/themes';

export function ResetPasswordScreen() {
  return <Heading as="h1">Reset Password</Heading>;
}
