import { Heading } from '@radix-ui/themes';

export function TeamMembersScreen() {
  return <Heading as="h1">Team members</Heading>;
}
