import { useEffect, useLayoutEffect, useState, type ReactNode } from 'react';
import { IntlProvider } from 'react-intl';

import { loadedMessages, loadMessages, type Messages } from './load-messages';
import { DEFAULT_LOCALE, textDirection, type Locale } from './locales';

type Catalog = { locale: Locale; messages: Messages };

/**
 * The catalog to render with: `wanted`'s when it is loaded (the layout's loader and the switcher load it before
 * asking), else the last one shown while `wanted`'s loads (the job's language changed under a read), so the screen
 * never flashes keys. Null only before any catalog arrived.
 */
export function useCatalog(wanted: Locale): Catalog | null {
  const [shown, setShown] = useState<Catalog | null>(null);
  const messages = loadedMessages(wanted);
  const current = messages ? { locale: wanted, messages } : shown;
  if (current && (current.locale !== shown?.locale || current.messages !== shown.messages)) setShown(current);
  useEffect(() => {
    if (loadedMessages(wanted)) return;
    let live = true;
    loadMessages(wanted).then(
      (loaded) => live && setShown({ locale: wanted, messages: loaded }),
      (error: unknown) => console.error(`The ${wanted} messages could not be loaded`, error),
    );
    return () => {
      live = false;
    };
  }, [wanted]);
  return current;
}

/**
 * Sets an attribute of <html> while mounted, and gives back what it was. A layout effect: set in the same commit as
 * the frame's own, so the page is never painted (nor read) in the last language's direction while the frame is in
 * the new one; a passive effect could run later than that on a busy device.
 */
function useRootAttribute(name: 'lang' | 'dir', value: string) {
  useLayoutEffect(() => {
    const root = document.documentElement;
    const before = root.getAttribute(name);
    root.setAttribute(name, value);
    return () => {
      if (before === null) root.removeAttribute(name);
      else root.setAttribute(name, before);
    };
  }, [name, value]);
}

function logIntlError(error: unknown) {
  console.error(error);
}

/**
 * The candidate's language around a candidate screen: its messages, dates and numbers, and its direction on the
 * page's root too while shown (the toaster and the dialogs, portalled out of the frame, read it there), so a screen
 * reader speaks it in that language and Arabic lays out right to left.
 */
export function CandidateIntl({ catalog, children }: { catalog: Catalog; children: ReactNode }) {
  useRootAttribute('lang', catalog.locale);
  useRootAttribute('dir', textDirection(catalog.locale));
  return (
    <IntlProvider locale={catalog.locale} defaultLocale={DEFAULT_LOCALE} messages={catalog.messages} onError={logIntlError}>
      {children}
    </IntlProvider>
  );
}
