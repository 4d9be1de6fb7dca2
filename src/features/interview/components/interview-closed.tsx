import { Card, Flex, Heading, Text } from '@radix-ui/themes';
import { useIntl } from 'react-intl';

import type { Interview, InterviewClosed } from '../api/interview-get';
import { formatDay } from '../i18n/format';

/**
 * What every candidate screen shows once the interview can no longer be answered (issue 17): the deadline passed, or
 * the company closed the invitation; or the company closed the job (issue 19). Polite, in the company's name, and without a way forward that would fail.
 */
export function InterviewClosedPage({ interview, closed }: { interview: Pick<Interview, 'companyName'>; closed: InterviewClosed }) {
  const intl = useIntl();
  const company = interview.companyName;
  const date = formatDay(intl, closed.at);
  if (closed.reason === 'job_closed') {
    // issue 19: the company closed the job itself (it may reopen it; nothing the candidate did is lost)
    return (
      <Card size="4" data-testid="interview-closed">
        <Flex direction="column" gap="3" align="start">
          <Heading as="h1" size="6">
            {intl.formatMessage({ id: 'closed.job.heading' }, { company })}
          </Heading>
          <Text as="p">
            {date
              ? intl.formatMessage({ id: 'closed.job.textOn' }, { company, date })
              : intl.formatMessage({ id: 'closed.job.text' }, { company })}
          </Text>
        </Flex>
      </Card>
    );
  }
  const deadline = closed.reason === 'deadline';
  return (
    <Card size="4" data-testid="interview-closed">
      <Flex direction="column" gap="3" align="start">
        <Heading as="h1" size="6">
          {deadline
            ? date
              ? intl.formatMessage({ id: 'closed.deadline.headingOn' }, { date })
              : intl.formatMessage({ id: 'closed.deadline.heading' })
            : intl.formatMessage({ id: 'closed.withdrawn.heading' })}
        </Heading>
        <Text as="p">
          {deadline
            ? intl.formatMessage({ id: 'closed.deadline.text' }, { company })
            : intl.formatMessage({ id: 'closed.withdrawn.text' }, { company })}
        </Text>
      </Flex>
    </Card>
  );
}
