import { z } from 'zod';

/** How long a new share link works, as the server takes it (1, 7, 14 or 30 days). */
export const EXPIRY_OPTIONS = [
  { days: 1, label: '1 day' },
  { days: 7, label: '7 days' },
  { days: 14, label: '14 days' },
  { days: 30, label: '30 days' },
] as const;

/** The 'Share' dialog's form: the link's expiry (a select's value, in days) and whether it shows the feedback. */
export const createShareLinkSchema = z.object({
  expiresInDays: z.enum(['1', '7', '14', '30'], { error: 'Choose 1, 7, 14 or 30 days.' }).transform(Number),
  includeFeedback: z.boolean(),
});

export type CreateShareLinkFormInput = z.input<typeof createShareLinkSchema>;
export type CreateShareLinkFormValues = z.output<typeof createShareLinkSchema>;

export const createShareLinkDefaults: CreateShareLinkFormInput = { expiresInDays: '14', includeFeedback: false };
