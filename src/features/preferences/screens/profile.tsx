import { Heading } from '@radix-ui/themes';

export function ProfileScreen() {
  return <Heading as="h1">Profile</Heading>;
}
