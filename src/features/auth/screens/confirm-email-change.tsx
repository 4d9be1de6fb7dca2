import { Heading } from '@radix-ui/themes';

export function ConfirmEmailChangeScreen() {
  return <Heading as="h1">Confirm email change</Heading>;
}
