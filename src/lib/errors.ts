import { ClientResponseError } from 'pocketbase';
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';

/**
 * Issue 16: no backend wording reaches a user. Every error the app can receive is turned into a sentence that says
 * what happened and what to do, from the tables below; what no table knows becomes GENERIC_ERROR_MESSAGE, and the
 * raw error goes to the console for whoever debugs it. The product's own server texts (written for people, in the
 * hooks, decisions.md or spec.md) are in the tables too, so a new server text shows only once it is listed here.
 */
export const GENERIC_ERROR_MESSAGE = 'Something went wrong while processing your request.';

/** What a status says when nothing more precise is known (5xx and anything unlisted: the generic message). */
export const STATUS_MESSAGES: Readonly<Record<number, string>> = {
  0: 'The server could not be reached. Check your connection, then try again.',
  401: 'Your session has ended. Please sign in again.',
  403: "You don't have permission to do this. Reload the page: your access may have changed.",
  404: "This item doesn't exist any more, or you don't have access to it. Reload the page to see what is there now.",
  408: 'The server took too long to answer. Please try again.',
  413: 'This is larger than the server accepts.',
  429: 'Too many attempts in a short time. Wait a few minutes, then try again.',
};

/** The sign-in's wrong e-mail or password (PocketBase's 400 'Failed to authenticate.'). */
export const WRONG_CREDENTIALS_MESSAGE = 'The e-mail or password is not right. Check them and try again.';
export const CONFIRM_EMAIL_FIRST_MESSAGE = 'Please confirm your e-mail first';
export const EMAIL_TAKEN_MESSAGE = 'An account with this e-mail already exists. Sign in, or use another address.';
export const NEW_EMAIL_TAKEN_MESSAGE = 'This e-mail address is already used by another account. Use another address.';
export const INVALID_TOKEN_MESSAGE = 'This link has expired or was already used. Ask for a new e-mail.';
export const WRONG_OLD_PASSWORD_MESSAGE = 'Your current password is not right.';

/**
 * Server messages (without PocketBase's trailing period) and the words the user reads instead. Most are the
 * product's own texts, set in the hooks after spec.md and decisions.md, and shown as they are.
 */
export const SERVER_MESSAGES: Readonly<Record<string, string>> = {
  'Failed to authenticate': WRONG_CREDENTIALS_MESSAGE,
  // the links of account e-mails (confirm verification, password reset, e-mail change)
  'Invalid or expired verification token': INVALID_TOKEN_MESSAGE,
  'Invalid or expired password reset token': INVALID_TOKEN_MESSAGE,
  'Invalid or expired token': INVALID_TOKEN_MESSAGE,
  'Please confirm your e-mail first': CONFIRM_EMAIL_FIRST_MESSAGE,
  'Please sign in to accept the invite': 'Please sign in to accept the invite',
  'This invitation is no longer valid': 'This invitation is no longer valid',
  'This interview link is not valid': 'This interview link is not valid',
  'You have used all your takes for this question': 'You have used all your takes for this question',
  'Please agree to the terms on the start page before answering':
    'Please agree to the terms on the start page before you answer.',
  'This question has already been answered': 'This question has already been answered',
  'This person is already a manager of this company': 'This person is already a manager of this company',
  'This person has already been invited': 'This person has already been invited',
  'This candidate has already been invited': 'This candidate has already been invited',
  'You have already rated this answer': 'You have already rated this answer',
  'Too many e-mails were sent to this address. Please try again later':
    'Too many e-mails were sent to this address. Please try again later',
  'The owner of a company cannot be changed': 'The owner of a company cannot be changed',
  'Managers join a company by accepting an invite': 'Managers join a company by accepting an invite',
  'The owner of the company cannot be removed from its managers':
    'The owner of the company cannot be removed from its managers',
  'Only the owner of the company can remove other managers; you can remove only yourself':
    'Only the owner of the company can remove other managers; you can remove only yourself',
  'Please add at least one question': 'Please add at least one question',
  "Every question must belong to the job's company":
    "A question of this job no longer belongs to this company. Remove it, then save again.",
  'Every question must be a video or a text question':
    'A question of this job has no kind yet. Edit it, or remove it from the job, then save again.',
  'This question already has a kind: remove it first': "This question's kind cannot be changed.",
  'Choose advance, hold, reject, or no decision': 'Choose advance, hold, reject, or no decision',
  'Choose 1 to 5 stars': 'Choose 1 to 5 stars',
  'Please write a comment': 'Please write a comment',
  'A comment must be at most 2,000 characters': 'A comment must be at most 2,000 characters',
  'Choose 1, 7, 14 or 30 days': 'Choose 1, 7, 14 or 30 days',
  'Include ratings and comments, or not': 'Include ratings and comments, or not',
  'You can only choose a company you manage': 'You can only choose a company you manage',
  // issue 16: resending a candidate's invitation (server/internal/candidates)
  'This candidate has already sent their answers: there is no invitation to resend':
    'This candidate has already sent their answers: there is no invitation to resend',
  'This invitation was withdrawn. Restore it before sending it again':
    'This invitation was withdrawn. Restore it before sending it again',
  'The deadline has passed. Extend it before sending the invitation again':
    'The deadline has passed. Extend it before sending the invitation again',
  'You sent many invitations again in a short time. Wait a few minutes, then try again':
    'You sent many invitations again in a short time. Wait a few minutes, then try again',
  // issue 16: history stays true (server/internal/answers); the delete refusals also carry codes (src/lib/deletion-errors.ts)
  "Candidates have answered this question, so its kind can't change. Create a new question of the other kind instead":
    "Candidates have answered this question, so its kind can't change. Create a new question of the other kind instead",
  'Candidates have answered this question: archive it instead, so their reviews keep it':
    'Candidates have answered this question: archive it instead, so their reviews keep it',
  'This job has answers: archive it, or confirm that its answers are deleted too':
    'This job has answers: archive it, or confirm that its answers are deleted too',
  'This candidate has answers: confirm that they are deleted too': 'This candidate has answers: confirm that they are deleted too',
  // issue 18: webhook endpoints (server/internal/webhooks/webhooks.go, the URL rule)
  'Use an https:// address': 'Use an https:// address',
  'This address is on a private network. Webhooks go to public addresses only':
    'This address is on a private network. Webhooks go to public addresses only',
  'Choose at least one event': 'Choose at least one event',
  // webhook test events and secret rotation (server/internal/webhooks/endpoint_routes.go, endpoints.go)
  'A test event is already being sent to this endpoint': 'A test event is already being sent to this endpoint. Wait for its result.',
  'You sent many test events in a short time. Wait a minute, then try again':
    'You sent many test events in a short time. Wait a minute, then try again.',
  'A test event is not sent again: send a new one from the endpoint': 'A test event is not sent again: send a new one from the endpoint.',
  'This delivery is already waiting to be sent': 'This delivery is already waiting to be sent.',
  // the audit log's filter (server/internal/lifecycle/audit_log_filter.go)
  'Choose who acted from the list': 'Choose who acted from the list.',
  'Choose an action from the list': 'Choose an action from the list.',
  'Enter a date as YYYY-MM-DD': 'Enter a date as YYYY-MM-DD.',
  'The last day must not be before the first': 'The last day must not be before the first.',
  // issue 19: job lifecycle and retention (server/internal/jobs/job_lifecycle.go, internal/lifecycle/retention.go)
  'This job is closed. Reopen it to invite candidates': 'This job is closed. Reopen it to invite candidates.',
  'This job was closed': 'This job was closed.',
  'Choose how long to keep candidates from the list': 'Choose how long to keep candidates from the list.',
  // a company's e-mail time zone (server/internal/companies/settings.go)
  'Choose a time zone from the list': 'Choose a time zone from the list.',
  // issue 19: the audit log is append-only (server/internal/lifecycle/audit_log.go)
  'The audit log cannot be changed': 'The audit log cannot be changed',
  // decision messages (server/internal/messages): templates and sending
  'Write a subject': 'Write a subject.',
  'Write the message': 'Write the message.',
  'Keep the subject to 200 characters': 'Keep the subject to 200 characters.',
  'Keep the message to 5,000 characters': 'Keep the message to 5,000 characters.',
  'Braces are only for the placeholders {name}, {job} and {company}':
    'Braces are only for the placeholders {name}, {job} and {company}.',
  'This company already has its own text for this message in this language':
    'This company already has its own text for this message in this language.',
  'Advance this candidate before sending the advance message': 'Advance this candidate before sending the advance message.',
  'Reject this candidate before sending the reject message': 'Reject this candidate before sending the reject message.',
  'This candidate was already sent the advance message': 'This candidate was already sent the advance message.',
  'This candidate was already sent the reject message': 'This candidate was already sent the reject message.',
  'This invitation was withdrawn, so the candidate gets no more e-mails about it':
    'This invitation was withdrawn, so the candidate gets no more e-mails about it.',
  'You sent many decision messages in a short time. Wait a few minutes, then try again':
    'You sent many decision messages in a short time. Wait a few minutes, then try again.',
  // a failed transcript asked for again (server/internal/takes/transcript_retry.go)
  'You asked for many transcripts again in a short time. Wait a few minutes, then try again':
    'You asked for many transcripts again in a short time. Wait a few minutes, then try again.',
  'This transcript is still being made: there is nothing to try again yet':
    'This transcript is still being made: there is nothing to try again yet.',
  'This answer already has its transcript: there is nothing to try again':
    'This answer already has its transcript: there is nothing to try again.',
  'Transcripts in this language need the Whisper-compatible endpoint: trying again would not make one':
    'Transcripts in this language need the Whisper-compatible endpoint: trying again would not make one.',
  // issue 17's refusals (their texts are fixed by its contract)
  'The deadline must be in the future': 'The deadline must be in the future',
  'This invitation was withdrawn': 'This invitation was withdrawn',
  'The time to answer this question is over': 'The time to answer this question is over',
  'This answer is longer than the time allowed': 'This answer is longer than the time allowed',
};

/** Refusal codes whose server message is the product's text, fixed by issue 17's contract (it carries a date). */
const PRODUCT_CODES = new Set(['deadline_passed']);

/**
 * Field validation codes (PocketBase's and the hooks'), most precise first: `collection.field.code`, then
 * `field.code`, then `code`. A function gets the error's params (PocketBase's `{{.min}}`...), read from the data.
 */
type FieldText = string | ((params: Record<string, string>) => string);
export const FIELD_CODES: Readonly<Record<string, FieldText>> = {
  'users.email.validation_not_unique': EMAIL_TAKEN_MESSAGE,
  'candidates.email.validation_not_unique': 'This candidate has already been invited',
  'manager_invites.email.validation_not_unique': 'This person has already been invited',
  'answer.validation_not_unique': 'This question has already been answered',
  'newEmail.validation_invalid_new_email': NEW_EMAIL_TAKEN_MESSAGE,
  'oldPassword.validation_invalid_old_password': WRONG_OLD_PASSWORD_MESSAGE,
  'token.validation_invalid_token': INVALID_TOKEN_MESSAGE,
  'passwordConfirm.validation_values_mismatch': 'Passwords do not match',
  'password.validation_invalid_password': 'Your password is not right.',
  validation_required: 'Please fill this in.',
  validation_not_unique: 'This is already taken. Choose another value.',
  validation_is_email: 'Please enter a valid e-mail address.',
  validation_invalid_email: 'Please enter a valid e-mail address.',
  validation_email_domain_not_allowed: 'E-mail addresses of this domain are not accepted.',
  validation_invalid_new_email: NEW_EMAIL_TAKEN_MESSAGE,
  validation_invalid_old_password: WRONG_OLD_PASSWORD_MESSAGE,
  validation_invalid_token: INVALID_TOKEN_MESSAGE,
  validation_values_mismatch: 'The two values do not match.',
  validation_min_text_constraint: (p) => (p.min ? `Please enter at least ${p.min} characters.` : 'This is too short.'),
  validation_max_text_constraint: (p) => (p.max ? `Please enter at most ${p.max} characters.` : 'This is too long.'),
  validation_length_too_short: (p) => (p.min ? `Please enter at least ${p.min} characters.` : 'This is too short.'),
  validation_length_too_long: (p) => (p.max ? `Please enter at most ${p.max} characters.` : 'This is too long.'),
  validation_length_out_of_range: (p) =>
    p.min && p.max ? `Please enter ${p.min} to ${p.max} characters.` : 'This is too short or too long.',
  validation_min_number_constraint: (p) => (p.min ? `Please enter a number of at least ${p.min}.` : 'This number is too small.'),
  validation_max_number_constraint: (p) => (p.max ? `Please enter a number of at most ${p.max}.` : 'This number is too large.'),
  validation_only_int_constraint: 'Please enter a whole number.',
  validation_not_a_number: 'Please enter a number.',
  validation_invalid_value: 'Please choose one of the offered values.',
  validation_invalid_format: 'This value is not in the expected format.',
  validation_invalid_url: 'Please enter a valid web address.',
  validation_file_size_limit: 'This file is too large.',
  validation_invalid_mime_type: 'This type of file is not accepted.',
  validation_too_many_files: 'Please choose fewer files.',
  validation_missing_rel_records: 'Something chosen here no longer exists. Reload the page and choose again.',
  validation_too_many_mails: 'Too many e-mails were sent to this address. Please try again later',
  validation_already_manager: 'This person is already a manager of this company',
  // security round three: names, titles, addresses and links are one line (server/internal/platform/single_line.go)
  validation_single_line: 'This field must be on one line.',
  // decision message templates: a misspelt placeholder, named (server/internal/messages/templates.go)
  validation_unknown_placeholder: (p) =>
    p.placeholder ? `${p.placeholder} is not a placeholder. Use {name}, {job} or {company}.` : 'Use only the placeholders {name}, {job} and {company}.',
};

/** Words a screen gives to a status in its own terms ('This candidate could not be found...'). */
export type ErrorWords = Partial<Record<number, string>>;

/**
 * PocketBase turns every message into a sentence by appending '.', while the product's texts
 * (decisions.md: 'This candidate has already been invited', ...) have none: compare and show them without it.
 */
export function serverText(message: string): string {
  return message.trim().replace(/\.$/, '');
}

/** The message to show a user for any thrown value; the raw error goes to the console. */
export function getErrorMessage(error: unknown, words: ErrorWords = {}): string {
  const known = knownMessage(error, words);
  if (known === null || !isProductText(error, known)) console.error(error);
  return known ?? GENERIC_ERROR_MESSAGE;
}

/**
 * The user's messages of an error's field validation data, by field name (PocketBase's `response.data[field]`),
 * each from FIELD_CODES or the product's server texts; a field with an unknown code gets the generic message.
 */
export function fieldErrorMessages(error: unknown): Record<string, string> {
  if (!(error instanceof ClientResponseError) || !isObject(error.response.data)) return {};
  const collection = collectionOf(error.url);
  const messages: Record<string, string> = {};
  for (const [field, detail] of Object.entries(error.response.data)) {
    if (!isObject(detail)) continue;
    messages[field] = fieldMessage(collection, field, detail) ?? GENERIC_ERROR_MESSAGE;
  }
  return messages;
}

/**
 * Puts the server's per-field validation errors under the form's fields, in the user's words.
 * Pass `fields` to map only the fields the form shows, so an error on a hidden field is not swallowed;
 * `rename` maps a server field to the form's (`newEmail` → `email`).
 *
 * @returns whether any error was mapped; if not, the caller shows `getErrorMessage(error)` instead.
 */
export function applyServerErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields?: readonly Path<T>[],
  rename: Readonly<Record<string, Path<T>>> = {},
): boolean {
  let mapped = false;
  for (const [serverField, message] of Object.entries(fieldErrorMessages(error))) {
    const field = rename[serverField] ?? serverField;
    if (fields && !fields.some((name) => name === field)) continue;
    setError(field as Path<T>, { type: 'server', message }, { shouldFocus: !mapped });
    mapped = true;
  }
  if (mapped) console.error(error);
  return mapped;
}

/** PocketBase's 400 'Failed to authenticate.' of a sign-in: a wrong e-mail or password (it does not say which). */
export function isWrongCredentialsError(error: unknown): boolean {
  if (!(error instanceof ClientResponseError) || error.status !== 400) return false;
  const message: unknown = error.response.message;
  return typeof message === 'string' && serverText(message) === 'Failed to authenticate';
}

/** Whether a failed request never reached the server or never came back (offline, DNS, CORS, cancelled). */
export function isNetworkError(error: unknown): boolean {
  return error instanceof ClientResponseError && error.status === 0;
}

function knownMessage(error: unknown, words: ErrorWords): string | null {
  if (!(error instanceof ClientResponseError)) return null;
  const status = error.status;
  if (status === 0) return words[0] ?? STATUS_MESSAGES[0] ?? null;

  const data: unknown = error.response.data;
  if (isObject(data)) {
    // issue 17's refusals: `{ interview: { code, message } }`
    for (const detail of Object.values(data)) {
      if (isObject(detail) && typeof detail.code === 'string' && PRODUCT_CODES.has(detail.code)) {
        if (typeof detail.message === 'string' && detail.message.trim()) return serverText(detail.message);
      }
    }
  }
  const message: unknown = error.response.message;
  const said = typeof message === 'string' ? SERVER_MESSAGES[serverText(message)] : undefined;
  if (said) return said;
  // a form error that no form field showed: its first field's words
  const [first] = Object.values(fieldErrorMessages(error));
  if (first && first !== GENERIC_ERROR_MESSAGE) return first;
  return words[status] ?? STATUS_MESSAGES[status] ?? null;
}

/** Product texts are the server's own words for people: nothing to debug, so nothing for the console. */
function isProductText(error: unknown, shown: string): boolean {
  if (!(error instanceof ClientResponseError)) return false;
  const message: unknown = error.response.message;
  return typeof message === 'string' && serverText(message) === shown;
}

function fieldMessage(collection: string, field: string, detail: Record<string, unknown>): string | null {
  const code = typeof detail.code === 'string' ? detail.code : '';
  if (typeof detail.message === 'string') {
    const said = SERVER_MESSAGES[serverText(detail.message)];
    if (said) return said;
  }
  const text = FIELD_CODES[`${collection}.${field}.${code}`] ?? FIELD_CODES[`${field}.${code}`] ?? FIELD_CODES[code];
  if (text === undefined) return null;
  return typeof text === 'string' ? text : text(paramsOf(detail));
}

/** PocketBase sends a rule's numbers as `params` (newer versions) and always in its message ('at least 3'). */
function paramsOf(detail: Record<string, unknown>): Record<string, string> {
  const params: Record<string, string> = {};
  if (isObject(detail.params)) {
    for (const [key, value] of Object.entries(detail.params)) {
      if (typeof value === 'number' || typeof value === 'string') params[key] = String(value);
    }
  }
  const message = typeof detail.message === 'string' ? detail.message : '';
  const numbers = message.match(/\d+/g) ?? [];
  const code = typeof detail.code === 'string' ? detail.code : '';
  if (code === 'validation_length_out_of_range' && numbers.length >= 2) {
    params.min ??= numbers[0] ?? '';
    params.max ??= numbers[1] ?? '';
  } else if (numbers.length === 1) {
    if (/min|too_short/.test(code)) params.min ??= numbers[0] ?? '';
    if (/max|too_long/.test(code)) params.max ??= numbers[0] ?? '';
  }
  return params;
}

/** The collection of a records API URL (`.../api/collections/{name}/...`), for field codes that depend on it. */
function collectionOf(url: string): string {
  return /\/api\/collections\/([^/?]+)/.exec(url)?.[1] ?? '';
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
