import { ClientResponseError } from 'pocketbase';
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';

export const GENERIC_ERROR_MESSAGE = 'Something went wrong while processing your request.';

/**
 * PocketBase turns every message into a sentence by appending '.', while the product's texts
 * (decisions.md: 'This candidate has already been invited', ...) have none: show them as written.
 */
export function serverText(message: string): string {
  return message.trim().replace(/\.$/, '');
}

/** The message to show a user for any thrown value: the server's own message when it sent one. */
export function getErrorMessage(error: unknown): string {
  if (error instanceof ClientResponseError) {
    const message: unknown = error.response.message;
    if (typeof message === 'string' && message.trim()) return serverText(message);
  }
  return GENERIC_ERROR_MESSAGE;
}

/**
 * Puts PocketBase's per-field validation errors (`response.data[field].message`) under the form's fields.
 * Pass `fields` to map only the fields the form shows, so an error on a hidden field is not swallowed.
 *
 * @returns whether any error was mapped; if not, the caller shows `getErrorMessage(error)` instead.
 */
export function applyServerErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields?: readonly Path<T>[],
): boolean {
  if (!(error instanceof ClientResponseError)) return false;
  const data: unknown = error.response.data;
  if (!isObject(data)) return false;

  let mapped = false;
  for (const [field, detail] of Object.entries(data)) {
    if (fields && !fields.some((name) => name === field)) continue;
    if (!isObject(detail) || typeof detail.message !== 'string') continue;
    setError(field as Path<T>, { type: 'server', message: serverText(detail.message) }, { shouldFocus: !mapped });
    mapped = true;
  }
  return mapped;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
