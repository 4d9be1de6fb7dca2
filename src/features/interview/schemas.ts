import { z } from 'zod/mini';

export const TEXT_ANSWER_MAX = 1000;

/**
 * The text answer form (decisions.md "Text answer"); the server allows 1 to 1000 characters.
 * zod/mini keeps the candidate's download small (spec budget), with the same messages.
 */
export const textAnswerSchema = z.object({
  content: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, 'Please enter your answer'),
      z.maxLength(TEXT_ANSWER_MAX, 'Your answer must be at most 1000 characters'),
    ),
});

export type TextAnswerInput = z.input<typeof textAnswerSchema>;
export type TextAnswerValues = z.output<typeof textAnswerSchema>;
