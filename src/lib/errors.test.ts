import { ClientResponseError } from 'pocketbase';
import type { UseFormSetError } from 'react-hook-form';
import { describe, expect, it, vi } from 'vitest';

import { applyServerErrors, GENERIC_ERROR_MESSAGE, getErrorMessage } from './errors';

const validationError = new ClientResponseError({
  status: 400,
  response: {
    message: 'Failed to create record.',
    data: {
      email: { code: 'validation_invalid_email', message: 'Must be a valid email address.' },
      firstName: { code: 'validation_length_out_of_range', message: 'Must be at least 3 characters.' },
    },
  },
});

describe('getErrorMessage', () => {
  it("uses the server's message, without the period PocketBase appends", () => {
    expect(getErrorMessage(validationError)).toBe('Failed to create record');
  });

  it.each([
    ['a response without a message', new ClientResponseError({ status: 0, response: {} })],
    ['any other error', new Error('boom')],
    ['a thrown string', 'boom'],
  ])('falls back to the generic message for %s', (_, error) => {
    expect(getErrorMessage(error)).toBe(GENERIC_ERROR_MESSAGE);
  });
});

describe('applyServerErrors', () => {
  type Form = { email: string; firstName: string; lastName: string };

  it("puts each field's message under that field, focusing the first", () => {
    const setError = vi.fn<UseFormSetError<Form>>();
    expect(applyServerErrors<Form>(validationError, setError)).toBe(true);
    expect(setError.mock.calls).toEqual([
      ['email', { type: 'server', message: 'Must be a valid email address' }, { shouldFocus: true }],
      ['firstName', { type: 'server', message: 'Must be at least 3 characters' }, { shouldFocus: false }],
    ]);
  });

  it('maps only the listed fields', () => {
    const setError = vi.fn();
    expect(applyServerErrors<Form>(validationError, setError, ['lastName'])).toBe(false);
    expect(applyServerErrors<Form>(validationError, setError, ['firstName'])).toBe(true);
    expect(setError).toHaveBeenCalledTimes(1);
    expect(setError).toHaveBeenCalledWith(
      'firstName',
      { type: 'server', message: 'Must be at least 3 characters' },
      { shouldFocus: true },
    );
  });

  it('maps nothing from an error without field data', () => {
    const setError = vi.fn();
    expect(applyServerErrors(new ClientResponseError({ status: 403, response: { message: 'No' } }), setError)).toBe(
      false,
    );
    expect(applyServerErrors(new Error('boom'), setError)).toBe(false);
    expect(setError).not.toHaveBeenCalled();
  });
});
