import { Heading } from '@radix-ui/themes';

export function EditCompanyScreen() {
  return <Heading as="h1">Edit company</Heading>;
}
