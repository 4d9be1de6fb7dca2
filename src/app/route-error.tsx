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

/**
 * What a 404 means on a record's own screen. Another company's URL never gets here (the company's pages show 'You
 * don't have access to this company' first): the record was deleted, or its id belongs to another company.
 */
export const NOT_FOUND_MESSAGES = {
  job: "This job could not be found: it may have been deleted, or it belongs to a company you don't manage.",
  question: "This question could not be found: it may have been deleted, or it belongs to a company you don't manage.",
  candidate:
    "This candidate could not be found: the invitation may have been deleted, or it belongs to a company you don't manage.",
} as const;

export function JobRouteError() {
  return <RouteError words={{ 404: NOT_FOUND_MESSAGES.job }} />;
}

export function QuestionRouteError() {
  return <RouteError words={{ 404: NOT_FOUND_MESSAGES.question }} />;
}

export function CandidateReviewError() {
  return <RouteError words={{ 404: NOT_FOUND_MESSAGES.candidate }} />;
}
