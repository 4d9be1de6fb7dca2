import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';

import { applyServerErrors, getErrorMessage } from '@/lib/errors';

import { showErrorToast } from './toaster';

/**
 * What every form does with a failed submit: the server's field errors go under their fields (what was typed stays),
 * anything else becomes an error toast with the server's message. The toast loads sonner on demand.
 */
export function reportFormError<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields?: readonly Path<T>[],
): void {
  if (!applyServerErrors(error, setError, fields)) showErrorToast(getErrorMessage(error));
}
