// The candidate's languages (src/features/interview/i18n/locales.ts): every catalog has every key of English's, each
// message parses as ICU, takes the same arguments as English's, sits in key order, and is translated (a message
// left in English fails unless scripts/translations-allowlist.json says why it is the same). The e-mail catalogs
// of the Go server, once there, pass the same checks and use only simple {name} arguments.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

import { describe, expect, it } from 'vitest';

import { LOCALES } from '../src/features/interview/i18n/locales';

import { catalogProblems, type Allowlist, type Catalog, type CatalogSet } from './translations-check';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const SPA = join(root, 'src/features/interview/i18n/messages');
const MAIL = join(root, 'server/internal/mail/locales');

function readJson<T>(path: string): T {
  const text = readFileSync(path, 'utf8');
  try {
    return JSON.parse(text) as T;
  } catch (error) {
    throw new Error(`${path} is not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function localesIn(folder: string): string[] {
  return readdirSync(folder)
    .filter((file) => file.endsWith('.json'))
    .map((file) => file.slice(0, -'.json'.length))
    .sort();
}

const allowlist = readJson<Allowlist>(join(root, 'scripts/translations-allowlist.json'));

function catalogSet(name: string, folder: string, simpleArgumentsOnly = false): CatalogSet {
  const catalogs: Record<string, Catalog> = {};
  for (const locale of localesIn(folder)) if (locale !== 'en') catalogs[locale] = readJson<Catalog>(join(folder, `${locale}.json`));
  return { name, reference: readJson<Catalog>(join(folder, 'en.json')), catalogs, allowlist, simpleArgumentsOnly };
}

const hasMail = existsSync(join(MAIL, 'en.json'));

describe("the candidate's catalogs", () => {
  it('are one for each language of the switcher, no more', () => {
    expect(localesIn(SPA)).toEqual([...LOCALES].sort());
  });

  it('of the screens: complete, parsed, with English arguments, sorted, translated', () => {
    expect(catalogProblems(catalogSet('spa', SPA))).toEqual([]);
  });

  it.skipIf(!hasMail)('of the e-mails: the same, with only simple {name} arguments', () => {
    expect(localesIn(MAIL)).toEqual([...LOCALES].sort());
    expect(catalogProblems(catalogSet('mail', MAIL, true))).toEqual([]);
  });

  it('allow English only where they say why, for keys that exist', () => {
    const keys = new Set([...Object.keys(readJson<Catalog>(join(SPA, 'en.json'))), ...(hasMail ? Object.keys(readJson<Catalog>(join(MAIL, 'en.json'))) : [])]);
    const problems: string[] = [];
    for (const [locale, entries] of Object.entries(allowlist)) {
      if (!(LOCALES as readonly string[]).includes(locale) || locale === 'en') problems.push(`${locale}: not a translated language`);
      for (const [key, why] of Object.entries(entries ?? {})) {
        if (!keys.has(key)) problems.push(`${locale} ${key}: not a key of any en.json`);
        if (!why.trim()) problems.push(`${locale} ${key}: says no reason`);
      }
    }
    expect(problems).toEqual([]);
  });
});

describe('the catalog check', () => {
  // A real catalog, broken one way at a time: each break is what a careless change would do.
  const good = catalogSet('spa', SPA);
  const german = good.catalogs.de!;
  const broken = (change: (de: Catalog) => Catalog, set: Partial<CatalogSet> = {}) =>
    catalogProblems({ ...good, ...set, catalogs: { de: change({ ...german }) } });

  it('passes the real German catalog', () => {
    expect(catalogProblems({ ...good, catalogs: { de: german } })).toEqual([]);
  });

  it('fails on a removed key', () => {
    expect(
      broken((de) => {
        delete de['start.button'];
        return de;
      }),
    ).toEqual(['spa de start.button: missing']);
  });

  it('fails on a key English does not have', () => {
    expect(broken((de) => ({ ...de, 'start.buttonn': 'Los' }))).toContain('spa de start.buttonn: not a key of en.json');
  });

  it('fails on a message that does not parse', () => {
    const problems = broken((de) => ({ ...de, 'start.heading': 'Interview bei {company' }));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^spa de start\.heading: does not parse/);
  });

  it('fails on an argument English does not pass', () => {
    expect(broken((de) => ({ ...de, 'start.heading': 'Interview bei {firma}' }))).toEqual([
      'spa de start.heading: takes {firma} where English takes {company}',
    ]);
  });

  it('fails on a plural without its other case, or with a case the language does not have', () => {
    expect(broken((de) => ({ ...de, 'time.seconds': '{seconds, plural, one {# Sekunde}}' }))[0]).toMatch(/does not parse/);
    expect(broken((de) => ({ ...de, 'time.seconds': '{seconds, plural, one {# Sekunde} few {# Sekunden} other {# Sekunden}}' }))).toEqual([
      'spa de time.seconds: plural selectors de does not have: few',
    ]);
  });

  it('fails on keys out of order', () => {
    const [first, ...rest] = Object.entries(german);
    expect(broken(() => Object.fromEntries([...rest, first!]))).toEqual(['spa de: keys are not sorted']);
  });

  it('fails on a message left in English, unless the allowlist says why', () => {
    const english = good.reference['start.button'];
    expect(broken((de) => ({ ...de, 'start.button': english }))).toEqual([`spa de start.button: still English ("${String(english)}")`]);
    const allowing = { allowlist: { de: { ...allowlist.de, 'start.button': 'the same word' } } };
    expect(broken((de) => ({ ...de, 'start.button': english }), allowing)).toEqual([]);
    expect(broken((de) => de, allowing)).toEqual([
      'spa de start.button: allowlisted as English, but translated: drop it from the allowlist',
    ]);
  });

  it('fails on e-mail messages with more than simple arguments', () => {
    const mail: CatalogSet = {
      name: 'mail',
      reference: { 'invite.deadline': 'Please answer by {deadline}.', 'invite.questions': '{count, plural, one {# question} other {# questions}}' },
      catalogs: { de: { 'invite.deadline': 'Bitte antworten Sie bis {deadline}.', 'invite.questions': '{count} Fragen' } },
      simpleArgumentsOnly: true,
    };
    expect(catalogProblems(mail)).toEqual(['mail en invite.questions: uses plural; only simple {name} arguments are substituted here']);
  });
});
