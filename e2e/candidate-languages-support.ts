// What the candidate-language journeys share: the catalogs as the screens format them, the English-left-over check,
// and a job seeded in a language in the company's own words.
import { readFileSync } from "node:fs";
import { join } from "node:path";

import { parse, TYPE, type MessageFormatElement } from "@formatjs/icu-messageformat-parser";
import { expect, type Page, type TestInfo } from "@playwright/test";
import { IntlMessageFormat } from "intl-messageformat";

import { createCompany, createQuestion, createUser, keyOf, uniqueEmail } from "./support";

export const LOCALES = ["en", "de", "fr", "es", "nl", "pt", "it", "pl", "ar"] as const;
export type Locale = (typeof LOCALES)[number];
type Catalog = Record<string, string>;

const messagesDir = join(import.meta.dirname, "..", "src", "features", "interview", "i18n", "messages");
const catalogs = Object.fromEntries(
  LOCALES.map((locale) => [locale, JSON.parse(readFileSync(join(messagesDir, `${locale}.json`), "utf8")) as Catalog]),
) as Record<Locale, Catalog>;

/** A message as the screens say it (react-intl formats with the same library). */
export function t(locale: Locale, key: string, values: Record<string, string | number> = {}): string {
  const message = catalogs[locale][key];
  if (message === undefined) throw new Error(`no ${key} in ${locale}.json`);
  return String(new IntlMessageFormat(message, locale).format(values));
}

/** The literal parts of English's messages long enough to be English only when seen (a word or two is not). */
const englishFragments: string[] = (() => {
  const found = new Set<string>();
  const walk = (elements: MessageFormatElement[]) => {
    for (const element of elements) {
      if (element.type === TYPE.literal) {
        for (const part of element.value.split(/[.:;!?]\s/)) if (part.trim().length >= 14) found.add(part.trim());
      } else if (element.type === TYPE.plural || element.type === TYPE.select) {
        for (const option of Object.values(element.options)) walk(option.value);
      } else if (element.type === TYPE.tag) walk(element.children);
    }
  };
  for (const message of Object.values(catalogs.en)) walk(parse(message));
  return [...found];
})();

/** English words no other catalog's language writes; product and browser names are not among them. */
const ENGLISH_WORDS = /\b(the|your|you|and|please|answers?|recording|thank|submit|withdraw|deleted)\b/i;

/**
 * What the candidate reads now, less what the company wrote (names, titles, questions) and the switcher's
 * autonyms ('English' among them): no English message or word may be left in it. Kept as the test's snapshot.
 */
export async function expectNoEnglish(page: Page, info: TestInfo, screen: string, data: string[]) {
  await expect(page.locator("html")).not.toHaveAttribute("lang", "en");
  let text = await page.locator("body").innerText();
  await info.attach(`${screen}.txt`, { body: text, contentType: "text/plain" });
  const select = page.locator('[data-testid="language-switcher"] select');
  const autonyms = (await select.count()) ? await select.locator("option").allInnerTexts() : [];
  for (const known of [...data, ...autonyms]) text = text.split(known).join(" ");
  const left = englishFragments.filter((fragment) => text.includes(fragment));
  expect(left, `English messages on the ${screen} screen`).toEqual([]);
  expect(text.match(ENGLISH_WORDS)?.[0] ?? null, `an English word on the ${screen} screen:\n${text}`).toBeNull();
}

/** PocketBase's date text for `ms`. */
export const dbTime = (ms: number) => new Date(ms).toISOString().replace("T", " ");

/** A job in `language` with its candidate, in the company's own words (no English of ours to be mistaken for it). */
export async function seedJob(language: Locale, questions: { kind: "video" | "text"; title: string; timeout: number; preparation?: number }[]) {
  const manager = await createUser();
  const company = await createCompany(manager.pb, "Globex");
  await manager.pb.collection("companies").update(company.id, { retentionMonths: 6, privacyUrl: "https://globex.example.com/datenschutz" });
  const made = [];
  for (const q of questions) {
    made.push(await createQuestion(manager.pb, company.id, q.kind, { title: q.title, description: `${q.title}?`, timeout: q.timeout, takes: 1, preparation: q.preparation }));
  }
  const job = await manager.pb.collection("jobs").create({
    company: company.id,
    title: "Kundenservice",
    description: "Kundenservice",
    location: "Berlin",
    language,
    questions: made.map((q) => q.id),
  });
  const candidate = await manager.pb.collection("candidates").create({ job: job.id, email: uniqueEmail("candidate") });
  return { manager, company, job, candidate, key: await keyOf(candidate.id), questions: made, data: ["Globex", "Kundenservice", ...questions.flatMap((q) => [q.title, `${q.title}?`])] };
}
