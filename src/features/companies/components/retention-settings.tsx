import { Box, Button, Flex, Heading, Text } from '@radix-ui/themes';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { toast } from '@/components/toast';

import { formatDate, formatDay } from '@/lib/format-date';
import { getErrorMessage } from '@/lib/errors';

import { RETENTION_OPTIONS, retentionQuery, useUpdateRetention, type RetentionCandidate, type RetentionPreview } from '../api/retention';

/**
 * Issue 19 point 5: how long the company keeps its candidates, and what the next daily run will delete. A candidate
 * is deleted, with everything of theirs, once their job has been closed for longer than the period, or once nothing
 * has happened around them for longer than it (README "Retention").
 */
export function RetentionSettings({ companyId, retentionMonths }: { companyId: string; retentionMonths: number }) {
  const id = useId();
  const [months, setMonths] = useState(retentionMonths);
  const update = useUpdateRetention();
  const preview = useQuery(retentionQuery(companyId));

  async function save() {
    try {
      await update.mutateAsync({ companyId, retentionMonths: months });
      toast.success('Retention period saved');
    } catch (error) {
      toast.error(getErrorMessage(error));
    }
  }

  return (
    <Box asChild mt="6" pt="5" style={{ borderTop: '1px solid var(--gray-a5)' }}>
      <section aria-labelledby={`${id}-heading`}>
        <Flex direction="column" gap="3">
          <Heading as="h2" size="4" id={`${id}-heading`}>
            Data retention
          </Heading>
          <Text as="p" size="2" color="gray">
            Candidates are deleted with their answers, videos, transcripts, ratings and comments once their job has
            been closed for longer than this period, or when nothing has happened with them for longer than it.
          </Text>
          <Flex gap="3" align="end" wrap="wrap">
            <Flex direction="column" gap="1">
              <Text as="label" htmlFor={`${id}-months`} size="2" weight="medium">
                Keep candidates for
              </Text>
              <select id={`${id}-months`} className="native-select" value={months} onChange={(event) => setMonths(Number(event.target.value))}>
                {RETENTION_OPTIONS.map((option) => (
                  <option key={option.months} value={option.months}>
                    {option.label}
                  </option>
                ))}
              </select>
            </Flex>
            <Button type="button" onClick={() => void save()} loading={update.isPending} disabled={months === retentionMonths}>
              Save retention
            </Button>
          </Flex>
          <RetentionPreviewText retentionMonths={retentionMonths} preview={preview.data} failed={preview.isError} />
        </Flex>
      </section>
    </Box>
  );
}

function RetentionPreviewText({
  retentionMonths,
  preview,
  failed,
}: {
  retentionMonths: number;
  preview: RetentionPreview | undefined;
  failed: boolean;
}) {
  if (!retentionMonths) return <Text as="p" size="2">Candidates are kept until you delete them.</Text>;
  if (failed) return <Text as="p" size="2" color="red">What the next run deletes could not be read. Reload the page to try again.</Text>;
  if (!preview) return <Text as="p" size="2" color="gray">Reading what the next run deletes…</Text>;
  const people = `${preview.count} ${preview.count === 1 ? 'candidate' : 'candidates'}`;
  const when = preview.nextRunAt
    ? `Next run: ${formatDate(preview.nextRunAt)}; ${preview.count ? `${people} will be deleted then.` : 'no candidate will be deleted then.'}`
    : `No run is scheduled; ${preview.count ? `${people} are due for deletion.` : 'no candidate is due for deletion.'}`;
  const more = preview.count - preview.candidates.length;
  return (
    <Flex direction="column" gap="2" data-testid="retention-preview">
      <Text as="p" size="2">
        {when}
      </Text>
      {preview.candidates.length ? (
        <ul style={{ margin: 0, paddingLeft: '1.25rem' }}>
          {preview.candidates.map((candidate) => (
            <li key={candidate.id}>
              <Text size="2">{describe(candidate)}</Text>
            </li>
          ))}
        </ul>
      ) : null}
      {more > 0 ? (
        <Text as="p" size="2" color="gray">
          and {more} more
        </Text>
      ) : null}
    </Flex>
  );
}

/** 'Ada Lovelace (ada@example.com), Support engineer: job closed on Jan 31, 2024'. */
export function describe(candidate: RetentionCandidate): string {
  const name = [candidate.firstName, candidate.lastName].filter(Boolean).join(' ');
  const who = name ? `${name} (${candidate.email})` : candidate.email;
  const why = candidate.reason === 'job_closed' ? `job closed on ${formatDay(candidate.since)}` : `no activity since ${formatDay(candidate.since)}`;
  return `${who}, ${candidate.jobTitle}: ${why}`;
}
