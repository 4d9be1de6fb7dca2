import { Flex, Heading, Text } from '@radix-ui/themes';
import { useIntl } from 'react-intl';

/**
 * A link that opens no interview. `replaced`: a link sent before interview links had keys (the server answered 410
 * and mailed the candidate the new one).
 */
export function InterviewInvalidLink({ replaced = false }: { replaced?: boolean }) {
  const intl = useIntl();
  return (
    <Flex direction="column" align="center" gap="2" py="6" style={{ textAlign: 'center' }}>
      <Heading as="h1" size="6">
        {intl.formatMessage({ id: replaced ? 'invalidLink.replaced.heading' : 'invalidLink.heading' })}
      </Heading>
      <Text color="gray">{intl.formatMessage({ id: replaced ? 'invalidLink.replaced.text' : 'invalidLink.text' })}</Text>
    </Flex>
  );
}
