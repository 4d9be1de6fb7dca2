import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { createIntl, IntlProvider } from 'react-intl';

import en from './messages/en.json';
import type { MessageKey } from './message-keys';

/** Tests' English: what a candidate reads of a key when the screens are in English. */
export const englishIntl = createIntl({ locale: 'en', messages: en });

export function english(key: MessageKey, values?: Record<string, string | number>): string {
  return englishIntl.formatMessage({ id: key }, values);
}

/** Renders a candidate component in English, as the candidate layout provides it. */
export function renderInEnglish(ui: ReactElement) {
  return render(
    <IntlProvider locale="en" messages={en}>
      {ui}
    </IntlProvider>,
  );
}
