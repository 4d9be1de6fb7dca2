import { Flex, Heading, Text } from '@radix-ui/themes';
import { useSearchParams } from 'react-router-dom';

/**
 * Two to four candidates of a job side by side, question by question. The pipeline's selection opens it with the
 * candidates' ids in `?candidates=`.
 */
export function CompareCandidatesScreen() {
  const [searchParams] = useSearchParams();
  const ids = (searchParams.get('candidates') ?? '').split(',').filter(Boolean);
  return (
    <Flex direction="column" gap="4">
      <Heading as="h1">Compare candidates</Heading>
      <Text color="gray">{ids.length} candidates</Text>
    </Flex>
  );
}
