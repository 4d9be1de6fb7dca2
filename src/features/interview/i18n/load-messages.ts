import type { Locale } from './locales';

export type Messages = Record<string, string>;

/**
 * Each language's messages are their own chunk, fetched on demand: a candidate downloads only the language they
 * read. The catalogs are ICU MessageFormat (plurals, selects, dates, numbers), checked by
 * scripts/translations.test.ts: every locale has every key of en.json, every message parses, none is left in English.
 */
const catalogs = import.meta.glob<Messages>('./messages/*.json', { import: 'default' });

const loaded = new Map<Locale, Promise<Messages>>();

export function loadMessages(locale: Locale): Promise<Messages> {
  let messages = loaded.get(locale);
  if (!messages) {
    const load = catalogs[`./messages/${locale}.json`];
    if (!load) return Promise.reject(new Error(`No messages for ${locale}`));
    messages = load();
    // a failed fetch (a dropped connection) is tried again next time, not remembered
    messages.catch(() => loaded.delete(locale));
    loaded.set(locale, messages);
  }
  return messages;
}
