// The candidate's catalogs reach the browser parsed (scripts/vite-precompiled-messages.ts): every message of every
// catalog must say exactly what its text says when formatted from its parsed form.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

import { IntlMessageFormat } from 'intl-messageformat';
import { describe, expect, it } from 'vitest';

import { argumentNames } from './translations-check';
import { precompileCatalog } from './vite-precompiled-messages';

const folder = join(resolve(dirname(new URL(import.meta.url).pathname), '..'), 'src/features/interview/i18n/messages');

describe('the precompiled catalogs', () => {
  it('format every message as its text does, in every language', () => {
    const different: string[] = [];
    for (const file of readdirSync(folder).filter((name) => name.endsWith('.json'))) {
      const locale = file.slice(0, -'.json'.length);
      const text = readFileSync(join(folder, file), 'utf8');
      const messages = JSON.parse(text) as Record<string, string>;
      const parsed = JSON.parse(precompileCatalog(text)) as Record<string, ConstructorParameters<typeof IntlMessageFormat>[0]>;
      expect(Object.keys(parsed)).toEqual(Object.keys(messages));
      for (const [key, message] of Object.entries(messages)) {
        const fromText = new IntlMessageFormat(message, locale);
        // each argument a number that picks a plural's 'few' or 'many' in the languages that have them
        const values = Object.fromEntries(argumentNames(fromText.getAst()).map((name) => [name, 3]));
        const want = fromText.format(values);
        const got = new IntlMessageFormat(parsed[key]!, locale).format(values);
        if (got !== want) different.push(`${locale} ${key}: ${String(got)} ≠ ${String(want)}`);
      }
    }
    expect(different).toEqual([]);
  });
});
