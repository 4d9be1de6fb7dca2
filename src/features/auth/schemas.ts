import { z } from 'zod';

/** E-mails are stored lower-cased and trimmed (decisions.md); the form sends them that way too. */
export function emailField(message: string) {
  return z.string().trim().toLowerCase().pipe(z.email(message));
}

export const NAME_MIN = 3;
export const NAME_MAX = 100;
export const PASSWORD_MIN = 8;

export function nameField() {
  return z
    .string()
    .trim()
    .min(NAME_MIN, `Name must be at least ${NAME_MIN} characters`)
    .max(NAME_MAX, `Name must be at most ${NAME_MAX} characters`);
}

export function newPasswordField() {
  return z.string().min(PASSWORD_MIN, `Password must be at least ${PASSWORD_MIN} characters`);
}

export const PASSWORDS_DO_NOT_MATCH = 'Passwords do not match';

/** A new password typed twice: the mismatch shows under the repeat field. */
export function passwordsMatch(value: { password: string; passwordConfirm: string }) {
  return value.password === value.passwordConfirm;
}
const mismatch = { message: PASSWORDS_DO_NOT_MATCH, path: ['passwordConfirm'] };

export const signInSchema = z.object({
  email: emailField('Please enter a valid email address.'),
  password: z.string().min(1, 'Please enter a password.'),
});
export type SignInInput = z.input<typeof signInSchema>;
export type SignInValues = z.output<typeof signInSchema>;

export const signUpSchema = z
  .object({
    firstName: nameField(),
    lastName: nameField(),
    email: emailField('Email is invalid'),
    password: newPasswordField(),
    passwordConfirm: newPasswordField(),
    invite: z.string().optional(),
  })
  .refine(passwordsMatch, mismatch);
export type SignUpInput = z.input<typeof signUpSchema>;
export type SignUpValues = z.output<typeof signUpSchema>;

export const resetPasswordSchema = z.object({
  email: emailField('Please enter a valid email'),
});
export type ResetPasswordInput = z.input<typeof resetPasswordSchema>;
export type ResetPasswordValues = z.output<typeof resetPasswordSchema>;

export const confirmPasswordResetSchema = z
  .object({
    password: newPasswordField(),
    passwordConfirm: newPasswordField(),
  })
  .refine(passwordsMatch, mismatch);
export type ConfirmPasswordResetInput = z.input<typeof confirmPasswordResetSchema>;
export type ConfirmPasswordResetValues = z.output<typeof confirmPasswordResetSchema>;

export const confirmEmailChangeSchema = z.object({
  password: z.string().min(1, 'Please enter your password'),
});
export type ConfirmEmailChangeInput = z.input<typeof confirmEmailChangeSchema>;
export type ConfirmEmailChangeValues = z.output<typeof confirmEmailChangeSchema>;
