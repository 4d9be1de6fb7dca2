import { z } from 'zod';

/**
 * A decision message's text as a manager writes it. The placeholders ({name}, {job}, {company}) are checked by the
 * server, which names a misspelt one under its field; here what needs no server.
 */
export const decisionTemplateSchema = z.object({
  subject: z
    .string()
    .trim()
    .min(1, 'Write a subject.')
    .max(200, 'Keep the subject to 200 characters.')
    .refine((value) => !/[\r\n]/.test(value), 'This field must be on one line.'),
  body: z.string().trim().min(1, 'Write the message.').max(5000, 'Keep the message to 5,000 characters.'),
});

export type DecisionTemplateValues = z.infer<typeof decisionTemplateSchema>;
