import { parse } from '@formatjs/icu-messageformat-parser';
import type { Plugin } from 'vite';

/** The candidate's catalogs (src/features/interview/i18n/messages/<locale>.json). */
const CATALOG = /\/src\/features\/interview\/i18n\/messages\/[a-z]{2}\.json$/;

/** A catalog of ICU messages as the parsed trees react-intl formats from: the same keys, each message parsed once. */
export function precompileCatalog(json: string): string {
  const messages = JSON.parse(json) as Record<string, string>;
  return JSON.stringify(Object.fromEntries(Object.entries(messages).map(([key, message]) => [key, parse(message)])));
}

/**
 * The candidate's catalogs reach the browser parsed (react-intl formats a parsed message as it does a string), so the
 * production build leaves the ICU parser out of the candidate's download: about 10 KB gzip of JavaScript for some
 * 400 bytes more of each catalog. Dev and tests parse as usual (the catalogs' check, scripts/translations.test.ts,
 * uses the parser), and a string reaching a production formatMessage throws the parser-less build's error.
 */
export function precompiledMessages(): Plugin {
  return {
    name: 'screenroom:precompiled-messages',
    enforce: 'pre',
    config(_, { command }) {
      if (command !== 'build') return;
      return {
        resolve: {
          alias: [{ find: /^@formatjs\/icu-messageformat-parser$/, replacement: '@formatjs/icu-messageformat-parser/lib/no-parser.js' }],
        },
      };
    },
    transform(code, id) {
      if (!CATALOG.test(id)) return null;
      // still JSON: Vite's own JSON plugin makes it a module after this
      return { code: precompileCatalog(code), map: null };
    },
  };
}
