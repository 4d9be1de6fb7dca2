import { Flex, Spinner } from '@radix-ui/themes';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';

import { LoadError } from './load-error';

/**
 * A query's three faces: a spinner while pending, the server's message in place of the page on a
 * load error (spec §2 for company and job screens), else the content built from the data.
 */
export function QueryState<T>({ query, children }: { query: UseQueryResult<T>; children: (data: T) => ReactNode }) {
  if (query.isPending) {
    return (
      <Flex justify="center" p="6" aria-busy="true">
        <Spinner size="3" />
      </Flex>
    );
  }
  if (query.isError) {
    return <LoadError error={query.error} />;
  }
  return <>{children(query.data)}</>;
}
