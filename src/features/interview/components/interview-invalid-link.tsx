import { Flex, Heading, Text } from '@radix-ui/themes';

/**
 * A link that opens no interview. `replaced`: a link sent before interview links had keys (the server answered 410
 * and mailed the candidate the new one).
 */
export function InterviewInvalidLink({ replaced = false }: { replaced?: boolean }) {
  return (
    <Flex direction="column" align="center" gap="2" py="6" style={{ textAlign: 'center' }}>
      <Heading as="h1" size="6">
        {replaced ? 'This interview link has been replaced' : 'This interview link is not valid'}
      </Heading>
      <Text color="gray">
        {replaced
          ? 'We have sent your new interview link to your e-mail address. Please open the interview from that e-mail.'
          : 'Please check the link in your invitation e-mail, or ask the company for a new one.'}
      </Text>
    </Flex>
  );
}
