import { Card, Flex, Heading, Text } from '@radix-ui/themes';

import type { Interview, InterviewClosed } from '../api/interview-get';
import { parseServerTime } from '../api/open-question';

/** A server date in the candidate's own words and locale ("24 November 2026"); '' when it cannot be read. */
export function localDate(text: string, withTime = false, locale?: string): string {
  const ms = parseServerTime(text);
  if (Number.isNaN(ms)) return '';
  return new Intl.DateTimeFormat(locale, withTime ? { dateStyle: 'long', timeStyle: 'short' } : { dateStyle: 'long' }).format(ms);
}

/**
 * What every candidate screen shows once the interview can no longer be answered (issue 17): the deadline passed, or
 * the company closed the invitation; or the company closed the job (issue 19). Polite, in the company's name, and without a way forward that would fail.
 */
export function InterviewClosedPage({ interview, closed }: { interview: Pick<Interview, 'companyName'>; closed: InterviewClosed }) {
  const company = interview.companyName;
  const date = localDate(closed.at);
  const deadline = closed.reason === 'deadline';
  if (closed.reason === 'job_closed') {
    // issue 19: the company closed the job itself (it may reopen it; nothing the candidate did is lost)
    return (
      <Card size="4" data-testid="interview-closed">
        <Flex direction="column" gap="3" align="start">
          <Heading as="h1" size="6">
            {company} has closed this job
          </Heading>
          <Text as="p">
            The interview for this job no longer takes answers{date ? ` (closed on ${date})` : ''}. Thank you for your
            interest in {company} and for your time.
          </Text>
        </Flex>
      </Card>
    );
  }
  return (
    <Card size="4" data-testid="interview-closed">
      <Flex direction="column" gap="3" align="start">
        <Heading as="h1" size="6">
          {deadline ? (date ? `This interview closed on ${date}` : 'This interview has closed') : 'This interview is no longer open'}
        </Heading>
        {deadline ? (
          <Text as="p">
            Thank you for your interest in {company}. The time to answer has passed; if you think this is a mistake,
            please get in touch with {company} directly.
          </Text>
        ) : (
          <Text as="p">{company} has closed this invitation. Thank you for your time.</Text>
        )}
      </Flex>
    </Card>
  );
}
