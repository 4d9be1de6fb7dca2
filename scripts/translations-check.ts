import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';

/**
 * The checks every catalog of the candidate's languages passes (scripts/translations.test.ts): the SPA's
 * (src/features/interview/i18n/messages) and the e-mails' (server/internal/mail/locales). A catalog is a flat JSON
 * object of ICU messages by key; English is the reference.
 */

export type Catalog = Record<string, unknown>;

/**
 * Keys per locale whose message may equal English's, with why: names, codes and words that are the same in that
 * language ({ "de": { "switcher.label": "..." } }).
 */
export type Allowlist = Record<string, Record<string, string> | undefined>;

export type CatalogSet = {
  /** Where the catalogs live, to name them in problems ('spa', 'mail'). */
  name: string;
  reference: Catalog;
  /** Every other locale's catalog, by locale. */
  catalogs: Record<string, Catalog>;
  allowlist?: Allowlist;
  /** Only `{name}` arguments (the Go renderer substitutes them; it knows no plural, select, number or tag). */
  simpleArgumentsOnly?: boolean;
};

type Parsed = { ast: MessageFormatElement[] } | { error: string };

function parseMessage(message: unknown): Parsed {
  if (typeof message !== 'string') return { error: 'is not a string' };
  try {
    return { ast: parse(message, { requiresOtherClause: true }) };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

function walk(elements: MessageFormatElement[], visit: (element: MessageFormatElement) => void) {
  for (const element of elements) {
    visit(element);
    if (element.type === TYPE.plural || element.type === TYPE.select) {
      for (const option of Object.values(element.options)) walk(option.value, visit);
    } else if (element.type === TYPE.tag) {
      walk(element.children, visit);
    }
  }
}

/** The names a message takes: its arguments and its tags, sorted. */
export function argumentNames(elements: MessageFormatElement[]): string[] {
  const names = new Set<string>();
  walk(elements, (element) => {
    if (element.type !== TYPE.literal && element.type !== TYPE.pound) names.add(element.type === TYPE.tag ? `<${element.value}>` : element.value);
  });
  return [...names].sort();
}

/** What a message uses beyond `{name}` arguments: plural, select, number, date, time, tags ('' when nothing). */
function complexPart(elements: MessageFormatElement[]): string {
  let found = '';
  walk(elements, (element) => {
    if (found || element.type === TYPE.literal || element.type === TYPE.argument) return;
    found = TYPE[element.type];
  });
  return found;
}

/** The plural selectors a message uses that its locale does not have ('few' in German): never chosen, a mistake. */
function foreignPluralSelectors(elements: MessageFormatElement[], locale: string): string[] {
  const categories = new Set<string>(new Intl.PluralRules(locale).resolvedOptions().pluralCategories);
  const ordinal = new Set<string>(new Intl.PluralRules(locale, { type: 'ordinal' }).resolvedOptions().pluralCategories);
  const wrong: string[] = [];
  walk(elements, (element) => {
    if (element.type !== TYPE.plural) return;
    const known = element.pluralType === 'ordinal' ? ordinal : categories;
    for (const selector of Object.keys(element.options)) {
      if (!selector.startsWith('=') && !known.has(selector)) wrong.push(selector);
    }
  });
  return wrong;
}

function isSorted(keys: string[]): boolean {
  return keys.every((key, i) => i === 0 || keys[i - 1]! < key);
}

/** Every problem of a set of catalogs, one line each; none when they are all right. */
export function catalogProblems({ name, reference, catalogs, allowlist = {}, simpleArgumentsOnly = false }: CatalogSet): string[] {
  const problems: string[] = [];
  const referenceKeys = Object.keys(reference);
  const referenceArguments = new Map<string, string[]>();

  if (!isSorted(referenceKeys)) problems.push(`${name} en: keys are not sorted`);
  for (const key of referenceKeys) {
    const parsed = parseMessage(reference[key]);
    if ('error' in parsed) {
      problems.push(`${name} en ${key}: does not parse (${parsed.error})`);
      continue;
    }
    referenceArguments.set(key, argumentNames(parsed.ast));
    const complex = simpleArgumentsOnly ? complexPart(parsed.ast) : '';
    if (complex) problems.push(`${name} en ${key}: uses ${complex}; only simple {name} arguments are substituted here`);
    const foreign = foreignPluralSelectors(parsed.ast, 'en');
    if (foreign.length) problems.push(`${name} en ${key}: plural selectors English does not have: ${foreign.join(', ')}`);
  }

  for (const [locale, catalog] of Object.entries(catalogs)) {
    const keys = Object.keys(catalog);
    const present = new Set(keys);
    for (const key of referenceKeys) if (!present.has(key)) problems.push(`${name} ${locale} ${key}: missing`);
    for (const key of keys) if (!(key in reference)) problems.push(`${name} ${locale} ${key}: not a key of en.json`);
    if (!isSorted(keys)) problems.push(`${name} ${locale}: keys are not sorted`);
    const allowed = allowlist[locale] ?? {};

    for (const key of keys) {
      if (!(key in reference)) continue;
      const message = catalog[key];
      const parsed = parseMessage(message);
      if ('error' in parsed) {
        problems.push(`${name} ${locale} ${key}: does not parse (${parsed.error})`);
        continue;
      }
      const expected = referenceArguments.get(key);
      const got = argumentNames(parsed.ast);
      if (expected && expected.join() !== got.join()) {
        problems.push(`${name} ${locale} ${key}: takes {${got.join(', ')}} where English takes {${expected.join(', ')}}`);
      }
      const complex = simpleArgumentsOnly ? complexPart(parsed.ast) : '';
      if (complex) problems.push(`${name} ${locale} ${key}: uses ${complex}; only simple {name} arguments are substituted here`);
      const foreign = foreignPluralSelectors(parsed.ast, locale);
      if (foreign.length) problems.push(`${name} ${locale} ${key}: plural selectors ${locale} does not have: ${foreign.join(', ')}`);
      const same = message === reference[key];
      if (same && !(key in allowed)) problems.push(`${name} ${locale} ${key}: still English ("${String(message)}")`);
      if (!same && key in allowed) problems.push(`${name} ${locale} ${key}: allowlisted as English, but translated: drop it from the allowlist`);
    }
  }
  return problems;
}
