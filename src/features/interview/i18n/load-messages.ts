import type { MessageFormatElement } from '@formatjs/icu-messageformat-parser';

import type { Locale } from './locales';
import type { MessageKey } from './message-keys';

/**
 * A catalog: every key of en.json (scripts/translations.test.ts checks that each has them all), each message already
 * parsed by the build (scripts/vite-precompiled-messages.ts).
 */
export type Messages = Record<MessageKey, MessageFormatElement[]>;

/**
 * Each language's messages are their own chunk, fetched on demand: a candidate downloads only the language they
 * read. The catalogs are ICU MessageFormat (plurals, selects, dates, numbers), checked by
 * scripts/translations.test.ts: every locale has every key of en.json, every message parses, none is left in English.
 */
const catalogs = import.meta.glob<Messages>('./messages/*.json', { import: 'default' });

const loading = new Map<Locale, Promise<Messages>>();
const ready = new Map<Locale, Messages>();

export function loadMessages(locale: Locale): Promise<Messages> {
  let messages = loading.get(locale);
  if (!messages) {
    const load = catalogs[`./messages/${locale}.json`];
    if (!load) return Promise.reject(new Error(`No messages for ${locale}`));
    messages = load().then((loaded) => {
      ready.set(locale, loaded);
      return loaded;
    });
    // a failed fetch (a dropped connection) is tried again next time, not remembered
    messages.catch(() => loading.delete(locale));
    loading.set(locale, messages);
  }
  return messages;
}

/** The messages of `locale` once loadMessages has them, so a screen renders at once in a language already fetched. */
export function loadedMessages(locale: Locale): Messages | undefined {
  return ready.get(locale);
}
