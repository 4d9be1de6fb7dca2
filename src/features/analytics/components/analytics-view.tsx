import { Box, Button, Callout, Card, Flex, Grid, Heading, Link as RadixLink, Spinner, Table, Text } from '@radix-ui/themes';
import type { UseQueryResult } from '@tanstack/react-query';
import { lazy, Suspense, useId, useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';

import { LoadError } from '@/components/load-error';
import { paths } from '@/config/paths';
import { downloadCsv } from '@/lib/csv';
import { formatDate } from '@/lib/format-date';

import type { AnalyticsFigures } from '../api/analytics-queries';
import {
  analyticsCsvRows,
  decisionRows,
  durationRows,
  formatDuration,
  formatShare,
  funnelRows,
  jobRows,
  questionRows,
  reminderRows,
  weekRows,
} from './analytics-model';

// The chart library arrives with these, on this screen only; the tables beside them stand without it.
const charts = () => import('./analytics-charts');
const FunnelChart = lazy(() => charts().then((m) => ({ default: m.FunnelChart })));
const QuestionsChart = lazy(() => charts().then((m) => ({ default: m.QuestionsChart })));
const DurationChart = lazy(() => charts().then((m) => ({ default: m.DurationChart })));
const WeeksChart = lazy(() => charts().then((m) => ({ default: m.WeeksChart })));
const RemindersChart = lazy(() => charts().then((m) => ({ default: m.RemindersChart })));

/** One figure: its heading and what it counts, the chart, and beside it the table of the same numbers. */
function Section({ title, description, chart, table, chartHeight }: { title: string; description: ReactNode; chart: ReactNode; table: ReactNode; chartHeight: number }) {
  const id = useId();
  return (
    <Card size="3" asChild>
      <section aria-labelledby={id}>
        <Flex direction="column" gap="3">
          <Heading as="h2" size="4" id={id}>
            {title}
          </Heading>
          <Text as="p" size="2" color="gray">
            {description}
          </Text>
          <Grid columns={{ initial: '1', md: '1fr 1fr' }} gap="5" align="start">
            <Box minWidth="0">
              {/* the chart's room is kept while it loads: nothing below moves */}
              <Suspense fallback={<div style={{ height: chartHeight }} aria-hidden="true" />}>{chart}</Suspense>
            </Box>
            <Box minWidth="0">{table}</Box>
          </Grid>
        </Flex>
      </section>
    </Card>
  );
}

function NumbersTable({ caption, headers, rows }: { caption: string; headers: string[]; rows: { key: string; cells: ReactNode[] }[] }) {
  return (
    <Table.Root size="1" variant="surface">
      <caption style={{ captionSide: 'top', textAlign: 'start', padding: 'var(--space-2) var(--space-3)', fontWeight: 500 }}>{caption}</caption>
      <Table.Header>
        <Table.Row>
          {headers.map((header, index) =>
            index === 0 ? (
              <Table.ColumnHeaderCell key={header}>{header}</Table.ColumnHeaderCell>
            ) : (
              <Table.ColumnHeaderCell key={header} justify="end">
                {header}
              </Table.ColumnHeaderCell>
            ),
          )}
        </Table.Row>
      </Table.Header>
      <Table.Body>
        {rows.map((row) => (
          <Table.Row key={row.key}>
            {row.cells.map((cell, index) =>
              index === 0 ? (
                <Table.RowHeaderCell key={index}>{cell}</Table.RowHeaderCell>
              ) : (
                <Table.Cell key={index} justify="end" style={{ fontVariantNumeric: 'tabular-nums' }}>
                  {cell}
                </Table.Cell>
              ),
            )}
          </Table.Row>
        ))}
      </Table.Body>
    </Table.Root>
  );
}

function fileName(figures: AnalyticsFigures): string {
  const slug = figures.title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || figures.scope;
  return `analytics-${slug}-${figures.asOf.slice(0, 10)}.csv`;
}

/**
 * A job's or a company's hiring funnel (server/internal/analytics): the funnel, where candidates stopped, how long
 * they took, completion by invite week and the reminders' effect, each a chart with its table; a company's also lists
 * its jobs. 'Download CSV' saves every table.
 */
export function AnalyticsView({
  figures,
  companyId,
  actions,
  onRefresh,
  refreshing,
}: {
  figures: AnalyticsFigures;
  companyId: string;
  actions?: ReactNode;
  onRefresh: () => void;
  refreshing: boolean;
}) {
  const funnel = funnelRows(figures);
  const questions = questionRows(figures);
  const durations = durationRows(figures);
  const weeks = weekRows(figures);
  const reminders = reminderRows(figures);
  const jobs = figures.scope === 'company' ? jobRows(figures) : [];

  return (
    <Flex direction="column" gap="5">
      <Flex justify="between" align="start" gap="3" wrap="wrap">
        <Flex direction="column" gap="1">
          <Heading as="h1">Analytics: {figures.title}</Heading>
          <Text size="2" color="gray">
            Figures as of {formatDate(figures.asOf)}; invite weeks start on Monday in {figures.timeZone}.
            {figures.refreshing ? ' Counting the latest changes…' : null}
          </Text>
        </Flex>
        <Flex gap="2" wrap="wrap">
          <Button variant="soft" onClick={onRefresh} loading={refreshing}>
            Refresh
          </Button>
          <Button onClick={() => downloadCsv(fileName(figures), analyticsCsvRows(figures))}>Download CSV</Button>
          {actions}
        </Flex>
      </Flex>

      {figures.funnel.invited === 0 ? (
        <Callout.Root color="gray">
          <Callout.Text>No candidates yet: the figures fill in as candidates are invited and answer.</Callout.Text>
        </Callout.Root>
      ) : null}

      <Section
        title="Funnel"
        description="Candidates at each stage: opened their link, agreed to the terms, opened a question, answered every question, and got a decision. Each stage counts the candidates who reached it."
        chartHeight={260}
        chart={<FunnelChart rows={funnel} />}
        table={
          <Flex direction="column" gap="3">
            <NumbersTable
              caption="Funnel"
              headers={['Stage', 'Candidates', '% of invited', '% of previous']}
              rows={funnel.map((row) => ({
                key: row.stage,
                cells: [row.label, row.candidates, formatShare(row.ofInvited), formatShare(row.ofPrevious)],
              }))}
            />
            <NumbersTable
              caption="Decisions"
              headers={['Decision', 'Candidates']}
              rows={decisionRows(figures).map((row) => ({ key: row.label, cells: [row.label, row.candidates] }))}
            />
          </Flex>
        }
      />

      <Section
        title="Drop-off per question"
        description={
          figures.scope === 'job'
            ? 'Per question, in the job’s order: who reached it, who answered it, and who stopped there (started, not finished, and this is the first question they have not answered).'
            : 'Per question, over every job that asks it, the questions where most candidates stopped first.'
        }
        chartHeight={Math.max(200, 48 + questions.length * 44)}
        chart={<QuestionsChart rows={questions} />}
        table={
          <NumbersTable
            caption="Drop-off per question"
            headers={['Question', 'Reached', 'Answered', 'Stopped here']}
            rows={questions.map((row) => ({ key: row.id, cells: [row.label, row.reached, row.answered, row.stopped] }))}
          />
        }
      />

      <Section
        title="Time to complete"
        description="For the candidates who completed: the median and the 90th percentile (nine in ten were faster) of the time from their first question, and from their invite."
        chartHeight={220}
        chart={<DurationChart rows={durations} />}
        table={
          <NumbersTable
            caption="Time to complete"
            headers={['Measured', 'Median', '90th percentile', 'Candidates']}
            rows={durations.map((row) => ({
              key: row.label,
              cells: [row.label, formatDuration(row.medianSeconds), formatDuration(row.p90Seconds), row.candidates],
            }))}
          />
        }
      />

      <Section
        title="Completion rate by invite week"
        description="The candidates invited each week, and how many of them have completed so far."
        chartHeight={260}
        chart={<WeeksChart rows={weeks} />}
        table={
          <NumbersTable
            caption="Completion rate by invite week"
            headers={['Week of', 'Invited', 'Completed', 'Completion rate']}
            rows={weeks.map((row) => ({ key: row.week, cells: [row.label, row.invited, row.completed, formatShare(row.rate)] }))}
          />
        }
      />

      <Section
        title="Reminders"
        description="Candidates with a deadline get a reminder 48 and 4 hours before it while they have not finished. The completion of those reminded against the others’, and how many completed after their reminder."
        chartHeight={200}
        chart={<RemindersChart rows={reminders} />}
        table={
          <Flex direction="column" gap="2">
            <NumbersTable
              caption="Reminders"
              headers={['Group', 'Candidates', 'Completed', 'Completion rate']}
              rows={reminders.map((row) => ({
                key: row.label,
                cells: [row.label, row.candidates, row.completed, formatShare(row.rate)],
              }))}
            />
            <Text as="p" size="2">
              Completed after their reminder: {figures.reminders.reminded.completedAfter} of the{' '}
              {figures.reminders.reminded.candidates} reminded.
            </Text>
          </Flex>
        }
      />

      {figures.scope === 'company' ? (
        <Card size="3" asChild>
          <section aria-labelledby="analytics-jobs">
            <Flex direction="column" gap="3">
              <Heading as="h2" size="4" id="analytics-jobs">
                Jobs
              </Heading>
              <NumbersTable
                caption="Each job, most invited first"
                headers={['Job', 'Invited', 'Started', 'Completed', 'Decided', 'Completion rate']}
                rows={jobs.map((job) => ({
                  key: job.id,
                  cells: [
                    <RadixLink asChild key="link">
                      <Link to={paths.companies.jobs.analytics.href(companyId, job.id)}>
                        {job.title}
                        {job.closed ? ' (closed)' : job.archived ? ' (archived)' : ''}
                      </Link>
                    </RadixLink>,
                    job.invited,
                    job.started,
                    job.completed,
                    job.decided,
                    formatShare(job.rate),
                  ],
                }))}
              />
            </Flex>
          </section>
        </Card>
      ) : null}
    </Flex>
  );
}

/** A job's or the company's figures as their screen reads them: a spinner, the load error, or the view. */
export function AnalyticsQueryView({
  query,
  readLatest,
  companyId,
  actions,
}: {
  query: UseQueryResult<AnalyticsFigures>;
  /** Refresh: the figures counting every write, into the query's data. */
  readLatest: () => Promise<unknown>;
  companyId: string;
  actions: ReactNode;
}) {
  // the Refresh button's own read (the rereads while the server counts again show nothing)
  const [readingLatest, setReadingLatest] = useState(false);
  if (query.isPending) return <Spinner size="3" />;
  if (query.isError) return <LoadError error={query.error} />;
  return (
    <AnalyticsView
      figures={query.data}
      companyId={companyId}
      onRefresh={() => {
        setReadingLatest(true);
        // a failed read shows its error in place of the figures (the query's state)
        void readLatest()
          .catch(() => undefined)
          .finally(() => setReadingLatest(false));
      }}
      refreshing={readingLatest}
      actions={actions}
    />
  );
}
