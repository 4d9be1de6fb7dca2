import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';

import { applyServerErrors, getErrorMessage, type ErrorWords } from '@/lib/errors';

import { showErrorToast } from './toaster';

export type FormErrorOptions<T extends FieldValues> = {
  /** A server field the form names differently (`newEmail` → `email`). */
  rename?: Readonly<Record<string, Path<T>>>;
  /** The form's own words for a status ('This job no longer exists...' for a 404). */
  words?: ErrorWords;
};

/**
 * What every form does with a failed submit: the server's field errors go under their fields in the user's words
 * (what was typed stays), anything else becomes an error toast (lib/errors.ts: never the server's wording). The
 * toast loads sonner on demand.
 */
export function reportFormError<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields?: readonly Path<T>[],
  options: FormErrorOptions<T> = {},
): void {
  if (!applyServerErrors(error, setError, fields, options.rename)) showErrorToast(getErrorMessage(error, options.words));
}
