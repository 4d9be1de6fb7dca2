import { z } from 'zod';

export const TEXT_ANSWER_MAX = 1000;

/** The text answer form (decisions.md "Text answer"); the server allows 1 to 1000 characters. */
export const textAnswerSchema = z.object({
  content: z
    .string()
    .trim()
    .min(1, 'Please enter your answer')
    .max(TEXT_ANSWER_MAX, 'Your answer must be at most 1000 characters'),
});

export type TextAnswerInput = z.input<typeof textAnswerSchema>;
export type TextAnswerValues = z.output<typeof textAnswerSchema>;
