import { GENERIC_ERROR_MESSAGE, getErrorMessage, STATUS_MESSAGES } from '@/lib/errors';

import type { MessageKey } from './message-keys';

/**
 * The app's error words (src/lib/errors.ts, decisions.md: no server wording reaches anyone) that a candidate can
 * meet, as the catalogs' keys; any other becomes the generic message in the candidate's language.
 */
const CANDIDATE_ERRORS = new Map<string | undefined, MessageKey>([
  [GENERIC_ERROR_MESSAGE, 'errors.generic'],
  [STATUS_MESSAGES[0], 'errors.offline'],
  [STATUS_MESSAGES[408], 'errors.timeout'],
  [STATUS_MESSAGES[429], 'errors.tooMany'],
]);

/** What to tell a candidate of a failed request, as a key (the raw error goes to the console, as getErrorMessage does). */
export function candidateErrorKey(error: unknown): MessageKey {
  return CANDIDATE_ERRORS.get(getErrorMessage(error)) ?? 'errors.generic';
}
