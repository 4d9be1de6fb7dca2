import { z } from 'zod';

import { deadlineFieldSchema, extraTakesFieldSchema, extraTimeFieldSchema } from '@/lib/deadline';
import { DEFAULT_LOCALE, LOCALES } from '@/lib/locales';

export const WELCOME_MESSAGE_MAX = 1000;
/** jobs.responseDays' limits (migration 1733000000): up to a year; 0 means no deadline. */
export const RESPONSE_DAYS_MAX = 365;

const RESPONSE_DAYS_MESSAGE = `Please enter a response time of 0 to ${RESPONSE_DAYS_MAX} days`;

/** The job form (spec §5 with decisions.md's messages; the location's messages name the location). */
export const jobFormSchema = z.object({
  title: z
    .string()
    .trim()
    .min(1, 'Title is required')
    .min(3, 'Title must be at least 3 characters')
    .max(128, 'Title must be at most 128 characters'),
  description: z
    .string()
    .trim()
    .min(1, 'Description is required')
    .min(3, 'Description must be at least 3 characters')
    .max(5000, 'Description must be at most 5000 characters'),
  location: z
    .string()
    .trim()
    .min(1, 'Location is required')
    .min(3, 'Location must be at least 3 characters')
    .max(64, 'Location must be at most 64 characters'),
  /** Issue 17: the manager's welcome to the job's candidates, plain text shown on the interview's start screen. */
  welcomeMessage: z.string().trim().max(WELCOME_MESSAGE_MAX, `Welcome message must be at most ${WELCOME_MESSAGE_MAX} characters`)
    .default(''),
  /**
   * Issue 17 point 5: the default response time of an invite in days; an empty field is 0, no deadline. The input is
   * a text field's string, so the empty string is read before the number.
   */
  responseDays: z
    .union([z.string(), z.number()])
    .default('')
    .transform((value) => (typeof value === 'string' && value.trim() === '' ? 0 : Number(value)))
    .pipe(
      z
        .number({ error: RESPONSE_DAYS_MESSAGE })
        .int('Please enter a whole number of days')
        .min(0, RESPONSE_DAYS_MESSAGE)
        .max(RESPONSE_DAYS_MAX, RESPONSE_DAYS_MESSAGE),
    ),
  /**
   * The language of everything the job's candidates meet (screens, e-mails, pages) and of their transcripts; each
   * candidate may switch their own link to another. A stored empty value reads as English.
   */
  language: z.enum(LOCALES, { error: 'Choose one of the listed languages' }).default(DEFAULT_LOCALE),
  /** Question ids, in the job's order. */
  questions: z.array(z.string()).min(1, 'Please add at least one question'),
});

export type JobFormInput = z.input<typeof jobFormSchema>;
export type JobFormValues = z.output<typeof jobFormSchema>;

export const newJobDefaults: JobFormInput = {
  title: '',
  description: '',
  location: '',
  welcomeMessage: '',
  responseDays: '',
  language: DEFAULT_LOCALE,
  questions: [],
};


/**
 * The candidate invite form on the job detail (decisions.md: e-mail fields without a stated message), with issue 17's
 * deadline and the adjustments for this candidate (extra time and takes).
 */
export const inviteCandidateSchema = z.object({
  email: z.string().trim().min(1, 'Please enter a valid email address.').pipe(z.email('Please enter a valid email address.')),
  deadline: deadlineFieldSchema,
  extraTime: extraTimeFieldSchema,
  extraTakes: extraTakesFieldSchema,
});

export type InviteCandidateInput = z.input<typeof inviteCandidateSchema>;
export type InviteCandidateValues = z.output<typeof inviteCandidateSchema>;
