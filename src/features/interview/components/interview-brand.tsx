import { useQuery } from '@tanstack/react-query';
import { Flex, Text } from '@radix-ui/themes';

import { pb } from '@/lib/pocketbase';

import { interviewQueries } from '../api/interview-get';

/**
 * The headline brand of every candidate screen (issue 17): the company's logo and name, and the job's title; the
 * product's own logo stays out of the candidate's way. Reads the interview the layout's loader already fetched.
 */
export function InterviewBrand({ candidateKey }: { candidateKey: string }) {
  const { data: interview } = useQuery(interviewQueries.detail(candidateKey));
  if (!interview) return null;
  const logo = interview.companyLogoUrl ? pb.buildURL(interview.companyLogoUrl) : '';
  return (
    <Flex align="center" gap="3" data-testid="interview-brand">
      {logo ? (
        // the name is written beside it: the image adds nothing for a screen reader
        <img src={logo} alt="" width={48} height={48} style={{ objectFit: 'contain', borderRadius: 8 }} />
      ) : null}
      <Flex direction="column">
        <Text size="5" weight="bold" highContrast>
          {interview.companyName}
        </Text>
        {interview.jobTitle ? (
          <Text size="2" color="gray">
            {interview.jobTitle}
          </Text>
        ) : null}
      </Flex>
    </Flex>
  );
}
