import { isLocale, pickLocale, type Locale } from './locales';

/**
 * The language a candidate picked with the switcher, remembered on this device for their link (the server keeps it
 * too, for the e-mails: POST .../language). Where storage is refused (a private window), this page still remembers.
 */
const PREFIX = 'screenroom.language.';
const inPage = new Map<string, Locale>();
const listeners = new Set<() => void>();

export function storedLocale(candidateKey: string): Locale | null {
  try {
    const stored = window.localStorage.getItem(PREFIX + candidateKey);
    return isLocale(stored) ? stored : null;
  } catch {
    // storage refused: the page's own memory
    return inPage.get(candidateKey) ?? null;
  }
}

export function storeLocale(candidateKey: string, locale: Locale): void {
  try {
    window.localStorage.setItem(PREFIX + candidateKey, locale);
  } catch {
    inPage.set(candidateKey, locale);
  }
  for (const listener of listeners) listener();
}

export function subscribeStoredLocale(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The browser's languages we ship, best first ('de-AT' is read as 'de'). */
function browserLocales(): string[] {
  if (typeof navigator === 'undefined') return [];
  const languages = navigator.languages?.length ? navigator.languages : [navigator.language];
  return languages.filter(Boolean).map((tag) => tag.toLowerCase().split('-')[0] ?? '');
}

/** The language of a link's screens: the candidate's choice on this device, then theirs on the server, then the job's. */
export function interviewLocale(
  candidateKey: string,
  interview: { candidateLanguage?: string; language?: string } | undefined,
): Locale {
  return pickLocale(storedLocale(candidateKey), interview?.candidateLanguage, interview?.language);
}

/** The language of a link that opens no interview: the choice stored for it, else the browser's, else English. */
export function linkLocale(candidateKey: string): Locale {
  return pickLocale(storedLocale(candidateKey), ...browserLocales());
}
