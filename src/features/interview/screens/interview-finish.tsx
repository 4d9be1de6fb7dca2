import { Flex, Heading, Text } from '@radix-ui/themes';

export function InterviewFinishScreen() {
  return (
    <Flex direction="column" align="center" gap="2" py="6">
      <Heading as="h1">Thank you</Heading>
      <Text color="gray">We&apos;ll get back to you soon</Text>
    </Flex>
  );
}
