import { Heading } from '@radix-ui/themes';

export function CreateCompanyScreen() {
  return <Heading as="h1">Create company</Heading>;
}
