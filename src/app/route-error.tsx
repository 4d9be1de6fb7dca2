import { Button, Callout, Flex } from '@radix-ui/themes';
import { isRouteErrorResponse, useRouteError } from 'react-router-dom';

import { getErrorMessage } from '@/lib/errors';

import { NotFound } from './not-found';

/** The one place a route's load or render error lands. */
export function RouteError() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;

  return (
    <Flex direction="column" align="center" gap="4" py="9" px="4">
      <Callout.Root color="red" role="alert">
        <Callout.Text>{getErrorMessage(error)}</Callout.Text>
      </Callout.Root>
      <Button variant="soft" onClick={() => window.location.reload()}>
        Reload the page
      </Button>
    </Flex>
  );
}
