import '@/components/native-select.css';

import { Flex, VisuallyHidden } from '@radix-ui/themes';
import { useId, useState } from 'react';
import { useIntl } from 'react-intl';

import { chooseLanguage } from '../api/choose-language';
import { loadMessages } from '../i18n/load-messages';
import { storeLocale } from '../i18n/locale-choice';
import { AUTONYMS, isLocale, LOCALES, textDirection, type Locale } from '../i18n/locales';

/** A globe: the sign for "language" a candidate finds without reading the language the page is in. */
function GlobeIcon() {
  return (
    <svg width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.6" aria-hidden="true" focusable="false">
      <circle cx="12" cy="12" r="9.5" />
      <path d="M2.5 12h19M12 2.5c2.6 2.7 3.9 5.9 3.9 9.5s-1.3 6.8-3.9 9.5c-2.6-2.7-3.9-5.9-3.9-9.5s1.3-6.8 3.9-9.5z" />
    </svg>
  );
}

/**
 * The candidate's language, on every candidate screen: each language by its own name. The choice is kept for this
 * link on this device and, unless `remember` is off (a withdrawn link the server no longer knows), by the server for
 * the e-mails. The screen changes language once the catalog is here, in place: nothing typed or recorded is lost.
 */
export function LanguageSwitcher({ candidateKey, remember = true }: { candidateKey: string; remember?: boolean }) {
  const intl = useIntl();
  const id = useId();
  const [pending, setPending] = useState<Locale | null>(null);

  const change = async (locale: Locale) => {
    setPending(locale);
    try {
      await loadMessages(locale);
    } catch (error) {
      // the catalog did not arrive (offline): the screen stays in its language, the select says so
      console.error(`The ${locale} messages could not be loaded`, error);
      setPending(null);
      return;
    }
    storeLocale(candidateKey, locale);
    setPending(null);
    if (remember) {
      chooseLanguage(candidateKey, locale).catch((error: unknown) => console.warn('The language could not be saved on the server', error));
    }
  };

  return (
    <Flex align="center" gap="2" style={{ color: 'var(--gray-11)' }} data-testid="language-switcher">
      <GlobeIcon />
      <VisuallyHidden>
        <label htmlFor={id}>{intl.formatMessage({ id: 'switcher.label' })}</label>
      </VisuallyHidden>
      <select
        id={id}
        className="native-select"
        value={pending ?? intl.locale}
        onChange={(event) => {
          if (isLocale(event.target.value)) void change(event.target.value);
        }}
      >
        {LOCALES.map((locale) => (
          <option key={locale} value={locale} lang={locale} dir={textDirection(locale)}>
            {AUTONYMS[locale]}
          </option>
        ))}
      </select>
    </Flex>
  );
}
