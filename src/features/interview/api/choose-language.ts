import { candidateOptions, pb } from '@/lib/pocketbase';

import type { Locale } from '../i18n/locales';

/**
 * The candidate picked a language with the switcher: POST /api/screenroom/interviews/{key}/language stores it for
 * their link (204), so the e-mails that follow are in it too. Unknown languages are refused (400, on `language`).
 */
export function chooseLanguage(candidateKey: string, language: Locale): Promise<void> {
  return pb.send(
    `/api/screenroom/interviews/${encodeURIComponent(candidateKey)}/language`,
    candidateOptions(candidateKey, { method: 'POST', body: { language } }),
  );
}
