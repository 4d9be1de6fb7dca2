import { Heading } from '@radix-ui/themes';

export function ConfirmVerificationScreen() {
  return <Heading as="h1">Confirm your email</Heading>;
}
