import type { IntlShape } from 'react-intl';

import type { Interview } from '../api/interview-get';

/**
 * How long the company keeps the answers, for the consent and the data-request page: its retention period, or until
 * it deletes them (0). Nothing is claimed by a server that does not say.
 */
export function retentionText(intl: IntlShape, interview: Pick<Interview, 'companyName' | 'retentionMonths'>): string | null {
  const months = interview.retentionMonths;
  if (typeof months !== 'number' || months < 0) return null;
  if (months === 0) return intl.formatMessage({ id: 'consent.retentionUntilDeleted' }, { company: interview.companyName });
  return intl.formatMessage({ id: 'consent.retention' }, { company: interview.companyName, months });
}
