/**
 * The interview's final refusals (issue 17): the server answers 403 with a code in the error data,
 * `{ data: { interview: { code, message } } }`. Repeating the request cannot succeed, so none is retried; what was
 * recorded or typed stays on the device, and the candidate reads these words (the catalogs' keys), never the server's.
 */
import type { MessageKey } from '../i18n/message-keys';

export type RefusalCode = 'deadline_passed' | 'withdrawn' | 'job_closed' | 'time_over' | 'answer_too_long';

export const REFUSAL_KEYS: Record<RefusalCode, MessageKey> = {
  deadline_passed: 'upload.problem.deadlinePassed',
  withdrawn: 'upload.problem.withdrawn',
  job_closed: 'upload.problem.jobClosed',
  time_over: 'upload.problem.timeOver',
  answer_too_long: 'upload.problem.tooLong',
};

/** The refusals that close the whole interview: the candidate is shown the closed page. */
export const CLOSING_CODES: readonly RefusalCode[] = ['deadline_passed', 'withdrawn', 'job_closed'];

function isRefusalCode(code: unknown): code is RefusalCode {
  return typeof code === 'string' && code in REFUSAL_KEYS;
}

/**
 * The refusal code in a server's error body (an XMLHttpRequest's or fetch's JSON), or in a PocketBase SDK error
 * (its `response`); null when there is none.
 */
export function refusalCode(errorOrBody: unknown): RefusalCode | null {
  if (typeof errorOrBody !== 'object' || errorOrBody === null) return null;
  const holder = errorOrBody as { response?: unknown; data?: unknown };
  const body = (holder.response && typeof holder.response === 'object' ? holder.response : errorOrBody) as {
    data?: { interview?: { code?: unknown } };
  };
  const code = body.data?.interview?.code;
  return isRefusalCode(code) ? code : null;
}

/** Whether a refusal's key says the interview closed (the answer uploads' failed state carries only the key). */
export function isClosingProblem(problem: string | undefined): boolean {
  return CLOSING_CODES.some((code) => REFUSAL_KEYS[code] === problem);
}
