import { ClientResponseError } from 'pocketbase';
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';

import { reportFormError } from '@/components/form-error';
import { DEADLINE_IN_PAST_MESSAGE } from '@/lib/deadline';

/**
 * A refused invite or invitation change: the server's only rule on a deadline is that it lies in the future, so any
 * refusal on that field says so in the app's words; the other fields' errors go under their fields as elsewhere.
 */
export function reportInvitationError<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: readonly Path<T>[],
): void {
  const data: unknown = error instanceof ClientResponseError ? error.response.data : undefined;
  const deadlineRefused = typeof data === 'object' && data !== null && 'deadline' in data && fields.some((field) => field === 'deadline');
  if (deadlineRefused) {
    console.error('The deadline was refused:', error);
    setError('deadline' as Path<T>, { type: 'server', message: DEADLINE_IN_PAST_MESSAGE }, { shouldFocus: true });
    const others = fields.filter((field) => field !== 'deadline');
    const rest = others.length ? error : undefined;
    if (rest && hasOtherFieldErrors(data, others)) reportFormError(error, setError, others);
    return;
  }
  reportFormError(error, setError, fields);
}

function hasOtherFieldErrors(data: unknown, fields: readonly string[]): boolean {
  return typeof data === 'object' && data !== null && Object.keys(data).some((key) => fields.includes(key));
}
