import { Flex, Heading, Text } from '@radix-ui/themes';

export function InterviewInvalidLink() {
  return (
    <Flex direction="column" align="center" gap="2" py="6" style={{ textAlign: 'center' }}>
      <Heading as="h1" size="6">
        This interview link is not valid
      </Heading>
      <Text color="gray">Please check the link in your invitation e-mail, or ask the company for a new one.</Text>
    </Flex>
  );
}
