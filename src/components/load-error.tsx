import { Callout } from '@radix-ui/themes';

import { getErrorMessage } from '@/lib/errors';

/** A failed load, shown where its content would be, with the server's message. */
export function LoadError({ error }: { error: unknown }) {
  return (
    <Callout.Root color="red" role="alert">
      <Callout.Text>{getErrorMessage(error)}</Callout.Text>
    </Callout.Root>
  );
}
