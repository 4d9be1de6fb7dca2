/**
 * The languages a candidate can take an interview in. The job's language (jobs.language, chosen by its manager in the
 * job form) is the default; the candidate's switcher overrides it for their link. The same list is the select of
 * server/pb_migrations/1733200800_candidate_languages.js, server/internal/platform/languages.go and the e-mail
 * catalogs of server/internal/mail/locales. Shared code: the interview and the job form both use it.
 */
export const LOCALES = ['en', 'de', 'fr', 'es', 'nl', 'pt', 'it', 'pl', 'ar'] as const;

export type Locale = (typeof LOCALES)[number];

export const DEFAULT_LOCALE: Locale = 'en';

/** Each language by its own name, as the switcher lists it (names, never translated). */
export const AUTONYMS: Record<Locale, string> = {
  en: 'English',
  de: 'Deutsch',
  fr: 'Français',
  es: 'Español',
  nl: 'Nederlands',
  pt: 'Português',
  it: 'Italiano',
  pl: 'Polski',
  ar: 'العربية',
};

const RTL: ReadonlySet<Locale> = new Set<Locale>(['ar']);

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

export function textDirection(locale: Locale): 'rtl' | 'ltr' {
  return RTL.has(locale) ? 'rtl' : 'ltr';
}

/** The first of `choices` that is a language we ship (empty and unknown ones skipped); English when none is. */
export function pickLocale(...choices: unknown[]): Locale {
  for (const choice of choices) {
    if (isLocale(choice)) return choice;
  }
  return DEFAULT_LOCALE;
}
