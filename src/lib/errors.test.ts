import { ClientResponseError } from 'pocketbase';
import type { UseFormSetError } from 'react-hook-form';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';

import {
  applyServerErrors,
  CONFIRM_EMAIL_FIRST_MESSAGE,
  EMAIL_TAKEN_MESSAGE,
  fieldErrorMessages,
  GENERIC_ERROR_MESSAGE,
  getErrorMessage,
  isWrongCredentialsError,
  NEW_EMAIL_TAKEN_MESSAGE,
  STATUS_MESSAGES,
  WRONG_CREDENTIALS_MESSAGE,
  WRONG_OLD_PASSWORD_MESSAGE,
} from './errors';

const BASE = 'http://127.0.0.1:8090';

/** An error as the SDK builds it from a response (status 0: no response at all). */
function sdkError(url: string, status: number, message = '', data: Record<string, unknown> = {}) {
  return new ClientResponseError({ url: BASE + url, status, response: status ? { status, message, data } : {} });
}

const field = (code: string, message: string, params?: Record<string, unknown>) => ({ code, message, params });

let consoleError: MockInstance<typeof console.error>;
beforeEach(() => {
  consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  consoleError.mockRestore();
});

/**
 * Every form and screen that talks to the server, with the request it makes. PocketBase's own messages for each
 * status (what the SDK would have shown before issue 16) must never reach the user.
 */
const FORMS = [
  ['sign-in', '/api/collections/users/auth-with-password'],
  ['sign-up', '/api/collections/users/records'],
  ['resend verification', '/api/collections/users/request-verification'],
  ['reset password', '/api/collections/users/request-password-reset'],
  ['confirm password reset', '/api/collections/users/confirm-password-reset'],
  ['confirm e-mail change', '/api/collections/users/confirm-email-change'],
  ['preferences: profile', '/api/collections/users/records/u1'],
  ['preferences: password', '/api/collections/users/records/u1'],
  ['preferences: e-mail', '/api/collections/users/request-email-change'],
  ['company', '/api/collections/companies/records'],
  ['team invite', '/api/collections/manager_invites/records'],
  ['job', '/api/collections/jobs/records'],
  ['question', '/api/collections/questions/records'],
  ['candidate invite', '/api/collections/candidates/records'],
  ['review comment', '/api/screenroom/comments'],
  ['review rating', '/api/screenroom/ratings'],
  ['review decision', '/api/screenroom/candidates/c1/decision'],
  ['share link', '/api/screenroom/share-links'],
] as const;

/** What PocketBase (or the hooks' generic refusals) say for each status, and what the user reads instead. */
const STATUSES = [
  [0, '', STATUS_MESSAGES[0]],
  [400, 'Failed to create record.', GENERIC_ERROR_MESSAGE],
  [401, "The request requires valid record authorization token.", STATUS_MESSAGES[401]],
  [403, 'The authorized record is not allowed to perform this action.', STATUS_MESSAGES[403]],
  [404, "The requested resource wasn't found.", STATUS_MESSAGES[404]],
  [429, 'Too Many Requests.', STATUS_MESSAGES[429]],
  [500, 'Something went wrong while processing your request.', GENERIC_ERROR_MESSAGE],
  [502, 'Bad Gateway', GENERIC_ERROR_MESSAGE],
  [503, 'Service Unavailable', GENERIC_ERROR_MESSAGE],
] as const;

describe.each(FORMS)('the %s form', (_, url) => {
  it.each(STATUSES)('status %i: in the words of the app, the raw error to the console', (status, said, expected) => {
    const error = sdkError(url, status, said);
    const shown = getErrorMessage(error);
    expect(shown).toBe(expected);
    if (said && said !== GENERIC_ERROR_MESSAGE) expect(shown).not.toContain(said.replace(/\.$/, ''));
    expect(consoleError).toHaveBeenCalledWith(error);
  });

  it('status 400 with field data: each field in the words of the app, the first one for a toast', () => {
    const error = sdkError(url, 400, 'Failed to create record.', {
      email: field('validation_required', 'Cannot be blank.'),
      name: field('validation_min_text_constraint', 'Must be at least 3 character(s).', { min: 3 }),
    });
    expect(fieldErrorMessages(error)).toEqual({
      email: 'Please fill this in.',
      name: 'Please enter at least 3 characters.',
    });
    expect(getErrorMessage(error)).toBe('Please fill this in.');
  });
});

describe('the known cases of issue 16', () => {
  it("a wrong password: 'Failed to authenticate' becomes a sentence that says what to do", () => {
    const error = sdkError('/api/collections/users/auth-with-password', 400, 'Failed to authenticate.');
    expect(isWrongCredentialsError(error)).toBe(true);
    expect(getErrorMessage(error)).toBe(WRONG_CREDENTIALS_MESSAGE);
    expect(isWrongCredentialsError(sdkError('/api/collections/users/auth-with-password', 400, 'Other.'))).toBe(false);
  });

  it("a sign-up with a known e-mail: 'Value must be unique' says an account exists", () => {
    const error = sdkError('/api/collections/users/records', 400, 'Failed to create record.', {
      email: field('validation_not_unique', 'Value must be unique.'),
    });
    expect(fieldErrorMessages(error)).toEqual({ email: EMAIL_TAKEN_MESSAGE });
  });

  it("an e-mail change to an address in use: 'Invalid new email address' says it is taken", () => {
    const error = sdkError('/api/collections/users/request-email-change', 400, 'Something went wrong.', {
      newEmail: field('validation_invalid_new_email', 'Invalid new email address.'),
    });
    expect(fieldErrorMessages(error)).toEqual({ newEmail: NEW_EMAIL_TAKEN_MESSAGE });
  });

  it("a review the manager may not open: a 404 in the screen's own words", () => {
    const error = sdkError('/api/screenroom/review/c1', 404, "The requested resource wasn't found.");
    expect(getErrorMessage(error, { 404: 'This candidate could not be found.' })).toBe(
      'This candidate could not be found.',
    );
  });

  it('an unconfirmed account (403) keeps the product text, and logs nothing', () => {
    const error = sdkError('/api/collections/users/auth-with-password', 403, 'Please confirm your e-mail first.');
    expect(getErrorMessage(error)).toBe(CONFIRM_EMAIL_FIRST_MESSAGE);
    expect(consoleError).not.toHaveBeenCalled();
  });

  it('a wrong current password on the password form', () => {
    const error = sdkError('/api/collections/users/records/u1', 400, 'Failed to update record.', {
      oldPassword: field('validation_invalid_old_password', 'Missing or invalid old password.'),
    });
    expect(fieldErrorMessages(error)).toEqual({ oldPassword: WRONG_OLD_PASSWORD_MESSAGE });
  });

  it('a line break in a single-line field (server/internal/platform/single_line.go) is said under each field it was in', () => {
    const error = sdkError('/api/collections/jobs/records', 400, 'Failed to create record.', {
      title: field('validation_single_line', 'This field must be on one line.'),
      location: field('validation_single_line', 'This field must be on one line.'),
    });
    expect(fieldErrorMessages(error)).toEqual({
      title: 'This field must be on one line.',
      location: 'This field must be on one line.',
    });
    expect(getErrorMessage(error)).toBe('This field must be on one line.');
  });

  it.each([
    ['candidates', 'This candidate has already been invited'],
    ['manager_invites', 'This person has already been invited'],
  ])('a second invite of one address (%s)', (collection, expected) => {
    const error = sdkError(`/api/collections/${collection}/records`, 400, 'Failed to create record.', {
      email: field('validation_not_unique', 'Value must be unique.'),
    });
    expect(fieldErrorMessages(error)).toEqual({ email: expected });
  });

  it("the address's e-mail budget (429 on the field) keeps the product text", () => {
    const error = sdkError('/api/collections/candidates/records', 429, 'Too many e-mails were sent to this address. Please try again later.', {
      email: field('validation_too_many_mails', 'Too many e-mails were sent to this address. Please try again later.'),
    });
    expect(fieldErrorMessages(error)).toEqual({
      email: 'Too many e-mails were sent to this address. Please try again later',
    });
    expect(getErrorMessage(error)).toBe('Too many e-mails were sent to this address. Please try again later');
  });

  it("issue 17's closed interview keeps its dated text from the refusal's code", () => {
    const error = sdkError('/api/screenroom/answers', 403, 'This interview closed on 24 November 2026.', {
      interview: field('deadline_passed', 'This interview closed on 24 November 2026.'),
    });
    expect(getErrorMessage(error)).toBe('This interview closed on 24 November 2026');
  });
});

describe('field codes', () => {
  it.each([
    ['validation_length_out_of_range', 'The length must be between 3 and 100.', {}, 'Please enter 3 to 100 characters.'],
    ['validation_max_text_constraint', 'Must be no more than 128 character(s).', {}, 'Please enter at most 128 characters.'],
    ['validation_min_number_constraint', 'Must be greater or equal than 5.', {}, 'Please enter a number of at least 5.'],
    ['validation_max_number_constraint', 'Must be less or equal than 600.', { max: 600 }, 'Please enter a number of at most 600.'],
    ['validation_is_email', 'must be a valid email address', {}, 'Please enter a valid e-mail address.'],
    ['validation_invalid_email', 'Must be a valid email address.', {}, 'Please enter a valid e-mail address.'],
    ['validation_file_size_limit', 'Failed to upload "x.png" - the maximum allowed file size is 5242880 bytes.', {}, 'This file is too large.'],
    ['validation_invalid_mime_type', '"x.exe" mime type must be one of: image/png.', {}, 'This type of file is not accepted.'],
    ['validation_missing_rel_records', 'Failed to find all relation records with the provided ids.', {}, 'Something chosen here no longer exists. Reload the page and choose again.'],
    ['validation_invalid_token', 'Invalid or expired token.', {}, 'This link has expired or was already used. Ask for a new e-mail.'],
  ])('%s', (code, message, params, expected) => {
    const error = sdkError('/api/collections/jobs/records', 400, 'Failed to create record.', {
      title: field(code, message, params),
    });
    expect(fieldErrorMessages(error)).toEqual({ title: expected });
  });

  it('an unknown code on a field gets the generic message, never the raw text', () => {
    const error = sdkError('/api/collections/jobs/records', 400, 'Failed to create record.', {
      title: field('validation_something_new', 'Raw backend words.'),
    });
    expect(fieldErrorMessages(error)).toEqual({ title: GENERIC_ERROR_MESSAGE });
    expect(getErrorMessage(error)).toBe(GENERIC_ERROR_MESSAGE);
  });

  it("a hook's product text on a field is kept", () => {
    const error = sdkError('/api/collections/jobs/records', 400, 'Failed to create record.', {
      questions: field('validation_required', 'Please add at least one question.'),
    });
    expect(fieldErrorMessages(error)).toEqual({ questions: 'Please add at least one question' });
  });
});

describe('getErrorMessage', () => {
  it.each([
    ['any other error', new Error('boom')],
    ['a thrown string', 'boom'],
    ['an unknown server message', sdkError('/api/x', 418, "I'm a teapot.")],
  ])('falls back to the generic message for %s, and logs it', (_, error) => {
    expect(getErrorMessage(error)).toBe(GENERIC_ERROR_MESSAGE);
    expect(consoleError).toHaveBeenCalledWith(error);
  });
});

describe('applyServerErrors', () => {
  type Form = { email: string; firstName: string; lastName: string };
  const validationError = sdkError('/api/collections/users/records', 400, 'Failed to create record.', {
    email: field('validation_invalid_email', 'Must be a valid email address.'),
    firstName: field('validation_length_out_of_range', 'The length must be between 3 and 100.'),
  });

  it("puts each field's message under that field, focusing the first", () => {
    const setError = vi.fn<UseFormSetError<Form>>();
    expect(applyServerErrors<Form>(validationError, setError)).toBe(true);
    expect(setError.mock.calls).toEqual([
      ['email', { type: 'server', message: 'Please enter a valid e-mail address.' }, { shouldFocus: true }],
      ['firstName', { type: 'server', message: 'Please enter 3 to 100 characters.' }, { shouldFocus: false }],
    ]);
    expect(consoleError).toHaveBeenCalledWith(validationError);
  });

  it('maps only the listed fields', () => {
    const setError = vi.fn();
    expect(applyServerErrors<Form>(validationError, setError, ['lastName'])).toBe(false);
    expect(applyServerErrors<Form>(validationError, setError, ['firstName'])).toBe(true);
    expect(setError).toHaveBeenCalledTimes(1);
    expect(setError).toHaveBeenCalledWith(
      'firstName',
      { type: 'server', message: 'Please enter 3 to 100 characters.' },
      { shouldFocus: true },
    );
  });

  it("puts a server field under the form's name for it", () => {
    const setError = vi.fn<UseFormSetError<{ email: string }>>();
    const error = sdkError('/api/collections/users/request-email-change', 400, 'x', {
      newEmail: field('validation_invalid_new_email', 'Invalid new email address.'),
    });
    expect(applyServerErrors<{ email: string }>(error, setError, ['email'], { newEmail: 'email' })).toBe(true);
    expect(setError).toHaveBeenCalledWith('email', { type: 'server', message: NEW_EMAIL_TAKEN_MESSAGE }, { shouldFocus: true });
  });

  it('maps nothing from an error without field data', () => {
    const setError = vi.fn();
    expect(applyServerErrors(sdkError('/api/x', 403, 'No'), setError)).toBe(false);
    expect(applyServerErrors(new Error('boom'), setError)).toBe(false);
    expect(setError).not.toHaveBeenCalled();
  });
});
