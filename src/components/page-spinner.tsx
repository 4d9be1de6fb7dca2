import { Flex, Spinner } from '@radix-ui/themes';

/** `label`: what a screen reader says, in the screen's language ('Loading' unless a candidate's says otherwise). */
export function PageSpinner({ label = 'Loading' }: { label?: string } = {}) {
  return (
    <Flex align="center" justify="center" py="9" role="status" aria-label={label}>
      <Spinner size="3" />
    </Flex>
  );
}
