import { Button, Card, DataList, Flex, Grid, Heading, Spinner, Table, Text, VisuallyHidden } from '@radix-ui/themes';
import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { Suspense } from 'react';
import { Link, useParams } from 'react-router-dom';

import { paths } from '@/config/paths';
import { questionKind, questionQueries, type QuestionKindRecord } from '@/features/questions/api/question-queries';
import { formatDate } from '@/lib/format-date';
import { AUTONYMS, pickLocale } from '@/lib/locales';
import type { QuestionsResponse } from '@/lib/pocketbase-types';

import { jobQueries, orderedQuestions } from '../api/job-queries';
import { CandidatePipeline, INVITE_ANCHOR } from '../components/candidate-pipeline';
import { InviteCandidateForm } from '../components/invite-candidate-form';
import { JobClosedBadge, JobClosedNotice, JobCloseButton } from '../components/job-lifecycle';
import { CsvInviteDialog } from '@/features/invites/components/csv-invite-dialog';

/** The job with its candidate pipeline (left) and its questions (right). A load error of the job replaces the page:
 * the route's error element shows the server's message; one of the pipeline stays inside its panel. */
export function JobDetailScreen() {
  return (
    <Suspense fallback={<Spinner size="3" />}>
      <JobDetail />
    </Suspense>
  );
}

function JobDetail() {
  const { companyId = '', jobId = '' } = useParams();
  const { data: job } = useSuspenseQuery(jobQueries.detail(jobId));
  const questions = orderedQuestions(job);
  // The kinds (video takes and preparation) come with the company's question bank, which the job form reads too.
  const bank = useQuery(questionQueries.list(companyId));
  const kinds = new Map((bank.data ?? []).map((question) => [question.id, questionKind(question)]));

  return (
    <Grid columns={{ initial: '1', lg: '2fr 1fr' }} gap="5" align="start">
      <Card size="3" asChild>
        <section aria-labelledby="job-candidates">
          <Flex direction="column" gap="4">
            <Heading as="h2" size="5" id="job-candidates">
              Candidates
            </Heading>
            {job.closedAt ? <JobClosedNotice closedAt={job.closedAt} /> : null}
            {/* a closed job invites no one (the server refuses it too): the forms stay in view, disabled */}
            <fieldset disabled={Boolean(job.closedAt)} aria-label="Invite candidates" style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
              <Flex direction="column" gap="4">
                <div id={INVITE_ANCHOR}>
                  <InviteCandidateForm jobId={jobId} responseDays={job.responseDays} />
                </div>
                <CsvInviteDialog jobId={jobId} />
              </Flex>
            </fieldset>
            <CandidatePipeline companyId={companyId} jobId={jobId} questionCount={job.questions.length} />
          </Flex>
        </section>
      </Card>

      <Flex direction="column" gap="4" asChild>
        <section aria-labelledby="job-title">
          <Flex justify="between" align="start" gap="3">
            <Heading as="h1" id="job-title">
              {job.title} <JobClosedBadge closedAt={job.closedAt} />
            </Heading>
            <Flex gap="2" wrap="wrap" justify="end">
              <JobCloseButton jobId={jobId} title={job.title} closedAt={job.closedAt} />
              <Button asChild variant="soft">
                <Link to={paths.companies.jobs.analytics.href(companyId, jobId)}>Analytics</Link>
              </Button>
              <Button asChild variant="soft">
                <Link to={paths.companies.jobs.edit.href(companyId, jobId)}>Edit</Link>
              </Button>
            </Flex>
          </Flex>
          {job.location ? (
            <Text size="2" color="gray">
              {job.location}
            </Text>
          ) : null}
          <Text as="p" style={{ whiteSpace: 'pre-wrap' }}>
            {job.description}
          </Text>
          <DataList.Root size="2">
            <DataList.Item>
              <DataList.Label>Response time</DataList.Label>
              <DataList.Value>{responseTimeText(job.responseDays)}</DataList.Value>
            </DataList.Item>
            <DataList.Item>
              <DataList.Label>Candidate language</DataList.Label>
              <DataList.Value>{AUTONYMS[pickLocale(job.language)]}</DataList.Value>
            </DataList.Item>
            <DataList.Item>
              <DataList.Label>Welcome message</DataList.Label>
              <DataList.Value>
                {job.welcomeMessage?.trim() ? (
                  <Text as="p" style={{ whiteSpace: 'pre-wrap' }} data-testid="job-welcome-message">
                    {job.welcomeMessage}
                  </Text>
                ) : (
                  <Text color="gray">None</Text>
                )}
              </DataList.Value>
            </DataList.Item>
          </DataList.Root>
          <Heading as="h2" size="4">
            Questions
          </Heading>
          <Table.Root variant="surface">
            <VisuallyHidden asChild>
              <caption>Questions</caption>
            </VisuallyHidden>
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeaderCell>Title</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>Answer</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>Created</Table.ColumnHeaderCell>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {questions.map((question) => (
                <Table.Row key={question.id}>
                  <Table.RowHeaderCell>{question.title}</Table.RowHeaderCell>
                  <Table.Cell>{answerText(question, kinds.get(question.id))}</Table.Cell>
                  <Table.Cell>{formatDate(question.created)}</Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        </section>
      </Flex>
    </Grid>
  );
}

/** The job's default response time as the detail shows it. */
export function responseTimeText(days: number | undefined): string {
  if (!days) return 'No deadline';
  return `${days} ${days === 1 ? 'day' : 'days'} after the invite`;
}

/**
 * How a question is answered: 'Video · 30 s to prepare · 60 s · 3 takes' or 'Text · 60 s'; while the bank loads (or
 * for a question without a kind) only the answer time.
 */
export function answerText(question: Pick<QuestionsResponse, 'timeout'>, kind: QuestionKindRecord | null | undefined): string {
  const time = formatSeconds(question.timeout);
  if (kind?.type === 'video') {
    const takes = `${kind.record.takes} ${kind.record.takes === 1 ? 'take' : 'takes'}`;
    const preparation = kind.record.preparation ? `${formatSeconds(kind.record.preparation)} to prepare` : 'no preparation';
    return `Video · ${preparation} · ${time} · ${takes}`;
  }
  if (kind?.type === 'text') return `Text · ${time}`;
  return time;
}

function formatSeconds(seconds: number): string {
  if (seconds < 60 || seconds % 60 !== 0) return `${seconds} s`;
  return `${seconds / 60} min`;
}
