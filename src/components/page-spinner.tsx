import { Flex, Spinner } from '@radix-ui/themes';

export function PageSpinner() {
  return (
    <Flex align="center" justify="center" py="9" role="status" aria-label="Loading">
      <Spinner size="3" />
    </Flex>
  );
}
