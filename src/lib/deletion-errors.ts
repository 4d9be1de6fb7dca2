import { ClientResponseError } from 'pocketbase';

import { GENERIC_ERROR_MESSAGE } from './errors';

/**
 * The server's refusals of a delete (server/internal/answers: data.delete.code), in the app's own words;
 * anything else is the generic sentence, its raw message on the console (decisions.md: no backend wording).
 */
const DELETE_REFUSALS: Record<string, string> = {
  question_has_answers: 'Candidates have answered this question, so it can only be archived.',
  only_question_of_job: 'This is the only question of a job. Add another question to that job first.',
  answers_not_confirmed: 'This has answers now. Close the dialog and open it again to see what deleting takes.',
};

export function deletionErrorMessage(error: unknown): string {
  if (error instanceof ClientResponseError) {
    const data: unknown = error.response.data;
    const code = (data as { delete?: { code?: unknown } } | null)?.delete?.code;
    if (typeof code === 'string' && code in DELETE_REFUSALS) return DELETE_REFUSALS[code]!;
    // the record is gone already (another manager deleted it) or was never ours to delete
    if (error.status === 404) return 'It was deleted already, or you no longer have access to it.';
  }
  console.error(error);
  return GENERIC_ERROR_MESSAGE;
}
