import { Button, Card, Flex, Grid, Heading, Spinner, Table, Text, VisuallyHidden } from '@radix-ui/themes';
import { useSuspenseQuery } from '@tanstack/react-query';
import { Suspense } from 'react';
import { Link, useParams } from 'react-router-dom';

import { paths } from '@/config/paths';
import { formatDate } from '@/lib/format-date';

import { jobQueries, orderedQuestions } from '../api/job-queries';
import { CandidatePipeline } from '../components/candidate-pipeline';
import { InviteCandidateForm } from '../components/invite-candidate-form';
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

  return (
    <Grid columns={{ initial: '1', lg: '2fr 1fr' }} gap="5" align="start">
      <Card size="3" asChild>
        <section aria-labelledby="job-candidates">
          <Flex direction="column" gap="4">
            <Heading as="h2" size="5" id="job-candidates">
              Candidates
            </Heading>
            <InviteCandidateForm jobId={jobId} />
            <CsvInviteDialog jobId={jobId} />
            <CandidatePipeline companyId={companyId} jobId={jobId} questionCount={job.questions.length} />
          </Flex>
        </section>
      </Card>

      <Flex direction="column" gap="4" asChild>
        <section aria-labelledby="job-title">
          <Flex justify="between" align="start" gap="3">
            <Heading as="h1" id="job-title">
              {job.title}
            </Heading>
            <Button asChild variant="soft">
              <Link to={paths.companies.jobs.edit.href(companyId, jobId)}>Edit</Link>
            </Button>
          </Flex>
          {job.location ? (
            <Text size="2" color="gray">
              {job.location}
            </Text>
          ) : null}
          <Text as="p" style={{ whiteSpace: 'pre-wrap' }}>
            {job.description}
          </Text>
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
                <Table.ColumnHeaderCell>Created</Table.ColumnHeaderCell>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {questions.map((question) => (
                <Table.Row key={question.id}>
                  <Table.RowHeaderCell>{question.title}</Table.RowHeaderCell>
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
