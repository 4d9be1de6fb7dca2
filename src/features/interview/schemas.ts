import { z } from 'zod/mini';

import type { MessageKey } from './i18n/message-keys';

export const TEXT_ANSWER_MAX = 1000;

/**
 * The text answer form (decisions.md "Text answer"); the server allows 1 to 1000 characters.
 * zod/mini keeps the candidate's download small (spec budget). Its messages are the catalogs' keys (in English
 * 'Please enter your answer', 'Your answer must be at most 1000 characters'), said in the candidate's language.
 */
export const textAnswerSchema = z.object({
  content: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, 'textAnswer.required' satisfies MessageKey),
      z.maxLength(TEXT_ANSWER_MAX, 'textAnswer.tooLong' satisfies MessageKey),
    ),
});

export type TextAnswerInput = z.input<typeof textAnswerSchema>;
export type TextAnswerValues = z.output<typeof textAnswerSchema>;
