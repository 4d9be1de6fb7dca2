import { z } from 'zod';

const NAME_MIN = 3;
const NAME_MAX = 100;
const PASSWORD_MIN = 8;
export const AVATAR_MAX_BYTES = 5 * 1024 * 1024;
export const AVATAR_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'];

const EMAIL_MESSAGE = 'Please enter a valid email address.';
const email = () => z.string().trim().toLowerCase().pipe(z.email(EMAIL_MESSAGE));
// decisions.md: the profile's names follow the sign-up rules (the server enforces 3 to 100).
const name = () =>
  z
    .string()
    .trim()
    .min(NAME_MIN, `Name must be at least ${NAME_MIN} characters`)
    .max(NAME_MAX, `Name must be at most ${NAME_MAX} characters`);

export const profileSchema = z.object({
  id: z.string().min(1),
  email: email(),
  firstName: name(),
  lastName: name(),
  avatar: z
    .instanceof(File)
    .refine((file) => AVATAR_TYPES.includes(file.type), 'Please choose a PNG, JPEG, WebP or GIF image')
    .refine((file) => file.size <= AVATAR_MAX_BYTES, 'The image must be at most 5 MB')
    .optional(),
  /** 'E-mail me when a candidate finishes an interview': the inverse of the stored users.completionMailsOff. */
  completionMails: z.boolean(),
});
export type ProfileInput = z.input<typeof profileSchema>;
export type ProfileValues = z.output<typeof profileSchema>;

export const updatePasswordSchema = z
  .object({
    id: z.string().min(1),
    oldPassword: z.string().min(1, 'Please enter your current password'),
    password: z.string().min(PASSWORD_MIN, `Password must be at least ${PASSWORD_MIN} characters`),
    passwordConfirm: z.string(),
  })
  .refine((value) => value.password === value.passwordConfirm, {
    message: 'Passwords do not match',
    path: ['passwordConfirm'],
  });
export type UpdatePasswordInput = z.input<typeof updatePasswordSchema>;
export type UpdatePasswordValues = z.output<typeof updatePasswordSchema>;

export const updateEmailSchema = z.object({
  email: email(),
});
export type UpdateEmailInput = z.input<typeof updateEmailSchema>;
export type UpdateEmailValues = z.output<typeof updateEmailSchema>;
