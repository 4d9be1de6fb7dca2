import { Flex, Text } from '@radix-ui/themes';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';

import { QueryState } from '@/components/query-state';

import { CompanySettingsLayout } from './company-settings-layout';

/**
 * A company settings screen that lists what one query reads (e.g. 'Share links', 'Audit log'): the section's title,
 * a sentence saying what the list holds, then the list built from the items, or `empty` when there are none (pending
 * and load error as QueryState shows them).
 */
export function CompanySettingsList<T>({
  companyId,
  title,
  intro,
  query,
  empty,
  children,
}: {
  companyId: string;
  title: string;
  intro: ReactNode;
  query: UseQueryResult<T[]>;
  empty: string;
  children: (items: T[]) => ReactNode;
}) {
  return (
    <CompanySettingsLayout companyId={companyId} title={title}>
      <Flex direction="column" gap="4">
        <Text as="p" size="2" color="gray">
          {intro}
        </Text>
        <QueryState query={query}>
          {(items) =>
            items.length === 0 ? (
              <Text size="2" color="gray">
                {empty}
              </Text>
            ) : (
              children(items)
            )
          }
        </QueryState>
      </Flex>
    </CompanySettingsLayout>
  );
}
