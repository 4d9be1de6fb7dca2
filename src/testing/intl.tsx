import type { ReactNode } from 'react';
import { IntlProvider } from 'react-intl';

import en from '@/features/interview/i18n/messages/en.json';

/**
 * The candidate's messages around a component rendered on its own (in the app, the candidate layout provides them):
 * English unless a test passes another locale's catalog. A missing message fails the test instead of printing its id.
 */
export function TestIntl({
  children,
  locale = 'en',
  messages = en,
}: {
  children: ReactNode;
  locale?: string;
  messages?: Record<string, string>;
}) {
  return (
    <IntlProvider
      locale={locale}
      messages={messages}
      onError={(error) => {
        throw error;
      }}
    >
      {children}
    </IntlProvider>
  );
}
