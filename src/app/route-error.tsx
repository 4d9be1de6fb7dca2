import { Button, Callout, Flex } from '@radix-ui/themes';
import { isRouteErrorResponse, useRouteError } from 'react-router-dom';

import { getErrorMessage, type ErrorWords } from '@/lib/errors';

import { NotFound } from './not-found';

/**
 * The one place a route's load or render error lands, in the user's words (lib/errors.ts); `words` are a route's own
 * words for a status.
 */
export function RouteError({ words }: { words?: ErrorWords }) {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;

  return (
    <Flex direction="column" align="center" gap="4" py="9" px="4">
      <Callout.Root color="red" role="alert">
        <Callout.Text>{getErrorMessage(error, words)}</Callout.Text>
      </Callout.Root>
      <Button variant="soft" onClick={() => window.location.reload()}>
        Reload the page
      </Button>
    </Flex>
  );
}

/** A candidate's review that does not exist, or is in a company the manager does not manage (issue 16). */
export const CANDIDATE_NOT_FOUND_MESSAGE =
  "This candidate could not be found: the invitation may have been deleted, or it belongs to a company you don't manage.";

export function CandidateReviewError() {
  return <RouteError words={{ 404: CANDIDATE_NOT_FOUND_MESSAGE }} />;
}
