/**
 * The interview's final refusals (issue 17): the server answers 403 with a code in the error data,
 * `{ data: { interview: { code, message } } }`. Repeating the request cannot succeed, so none is retried; what was
 * recorded or typed stays on the device, and the candidate reads these words, never the server's.
 */
export type RefusalCode = 'deadline_passed' | 'withdrawn' | 'job_closed' | 'time_over' | 'answer_too_long';

export const REFUSAL_MESSAGES: Record<RefusalCode, string> = {
  deadline_passed: 'This interview has closed.',
  withdrawn: 'This interview is no longer open.',
  job_closed: 'This job has been closed.',
  time_over: 'The time to answer this question was over when it arrived.',
  answer_too_long: 'Your recording is longer than the time allowed for this question.',
};

/** The refusals that close the whole interview: the candidate is shown the closed page. */
export const CLOSING_CODES: readonly RefusalCode[] = ['deadline_passed', 'withdrawn', 'job_closed'];

function isRefusalCode(code: unknown): code is RefusalCode {
  return typeof code === 'string' && code in REFUSAL_MESSAGES;
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

/** Whether the refusal's words say the interview closed (the answer uploads' failed state carries only the words). */
export function isClosingMessage(message: string | undefined): boolean {
  return CLOSING_CODES.some((code) => REFUSAL_MESSAGES[code] === message);
}
