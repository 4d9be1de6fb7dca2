import { Flex, Heading } from '@radix-ui/themes';

export function NotFound() {
  return (
    <Flex align="center" justify="center" py="9" px="4">
      <Heading as="h1" size="5">
        404: No such page!
      </Heading>
    </Flex>
  );
}
