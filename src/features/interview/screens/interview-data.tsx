import { useSuspenseQuery } from '@tanstack/react-query';
import { Card, Flex, Heading, Text } from '@radix-ui/themes';
import { useIntl } from 'react-intl';

import { interviewQueries } from '../api/interview-get';
import { useInterviewParam } from '../components/interview-params';
import { InterviewPrivacyLink } from '../components/interview-privacy-link';
import { retentionText } from '../components/interview-retention';
import { WithdrawButton } from '../components/interview-withdraw';

/**
 * The data-request page every candidate e-mail links to: what the company keeps of the application, who sees it,
 * for how long, and 'Withdraw and delete my answers' behind its confirmation (opening the page never erases
 * anything). Shown while the interview is open or closed alike: the right outlives the deadline.
 */
export function InterviewDataScreen() {
  const intl = useIntl();
  const candidateId = useInterviewParam('candidateId');
  const { data: interview } = useSuspenseQuery(interviewQueries.detail(candidateId));
  const company = interview.companyName;
  const retention = retentionText(intl, interview);
  const answered = interview.answeredQuestionIds.length;
  return (
    <Card size="4">
      <Flex direction="column" gap="4" align="start">
        <Heading as="h1" size="7">
          {intl.formatMessage({ id: 'dataRequest.heading' })}
        </Heading>
        <Text as="p">{intl.formatMessage({ id: 'dataRequest.intro' }, { company })}</Text>

        <Flex direction="column" gap="2" asChild>
          <section aria-labelledby="data-kept">
            <Heading as="h2" size="4" id="data-kept">
              {intl.formatMessage({ id: 'dataRequest.keptHeading' })}
            </Heading>
            <Text as="p">{intl.formatMessage({ id: 'dataRequest.kept' })}</Text>
            <Text as="p" data-testid="data-answered">
              {intl.formatMessage({ id: 'dataRequest.answered' }, { answered })}
            </Text>
            <Text as="p">{intl.formatMessage({ id: 'consent.seenBy' }, { company })}</Text>
            {retention ? <Text as="p">{retention}</Text> : null}
            <InterviewPrivacyLink url={interview.privacyUrl} company={company} />
          </section>
        </Flex>

        <Flex direction="column" gap="3" align="start" asChild>
          <section aria-labelledby="data-delete">
            <Heading as="h2" size="4" id="data-delete">
              {intl.formatMessage({ id: 'dataRequest.deleteHeading' })}
            </Heading>
            <Text as="p">{intl.formatMessage({ id: 'dataRequest.delete' }, { company })}</Text>
            <WithdrawButton candidateKey={candidateId} companyName={company} variant="soft" />
          </section>
        </Flex>
      </Flex>
    </Card>
  );
}
