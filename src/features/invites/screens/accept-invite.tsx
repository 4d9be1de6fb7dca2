import { Heading } from '@radix-ui/themes';

export function AcceptInviteScreen() {
  return <Heading as="h1">Company invitation</Heading>;
}
