import { z } from 'zod';

export const WELCOME_MESSAGE_MAX = 1000;

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
  /** Question ids, in the job's order. */
  questions: z.array(z.string()).min(1, 'Please add at least one question'),
});

export type JobFormInput = z.input<typeof jobFormSchema>;
export type JobFormValues = z.output<typeof jobFormSchema>;

export const newJobDefaults: JobFormInput = { title: '', description: '', location: '', welcomeMessage: '', questions: [] };

/** The candidate invite form on the job detail (decisions.md: e-mail fields without a stated message). */
export const inviteCandidateSchema = z.object({
  email: z.string().trim().min(1, 'Please enter a valid email address.').pipe(z.email('Please enter a valid email address.')),
});

export type InviteCandidateValues = z.output<typeof inviteCandidateSchema>;
