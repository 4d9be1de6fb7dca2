import { Box, Card, Flex, Heading } from '@radix-ui/themes';
import type { ReactNode } from 'react';

import { CompanySettingsNav } from './company-settings-nav';

export function CompanySettingsLayout({ companyId, title, children }: { companyId: string; title: string; children: ReactNode }) {
  return (
    <Flex gap="6" direction={{ initial: 'column', sm: 'row' }} p="4">
      <Box minWidth="160px">
        <CompanySettingsNav companyId={companyId} />
      </Box>
      <Box flexGrow="1" maxWidth="720px">
        <Heading as="h1" size="6" mb="4">
          {title}
        </Heading>
        <Card size="3">{children}</Card>
      </Box>
    </Flex>
  );
}
