import './candidate-pipeline.css';

import { Badge, Button, Callout, Flex, Link as RadixLink, Spinner, Table, Text, TextField, VisuallyHidden } from '@radix-ui/themes';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useEffect, useLayoutEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router-dom';

import { paths } from '@/config/paths';
import { invitationState } from '@/lib/deadline';
import { GENERIC_ERROR_MESSAGE } from '@/lib/errors';
import { formatDate, formatDay } from '@/lib/format-date';
import {
  readPipelineState,
  writePipelineState,
  type PipelineDecision,
  type PipelineSortKey,
  type PipelineState,
  type PipelineStatus,
} from '@/lib/pipeline-query';

import { jobQueries, type PipelineCandidate, type PipelinePage } from '../api/job-queries';

import { MAX_BULK_CANDIDATES, usePipelineSelection } from './pipeline-selection';

const BulkActionBar = lazy(() => import('./bulk-action-bar').then((m) => ({ default: m.BulkActionBar })));

/** The id of the invite form's box on the job's page: the empty pipeline's link goes there. */
export const INVITE_ANCHOR = 'invite-candidate';

/** How long the e-mail search waits after the last key before it asks the server. */
export const SEARCH_DELAY_MS = 300;

/** The columns, each sortable; a first click sorts the way a manager most likely wants (newest, best, furthest). */
const COLUMNS: readonly { key: PipelineSortKey; label: string; firstDir: PipelineState['dir'] }[] = [
  { key: 'email', label: 'Email', firstDir: 'asc' },
  { key: 'created', label: 'Invited on', firstDir: 'desc' },
  { key: 'status', label: 'Status', firstDir: 'desc' },
  { key: 'averageRating', label: 'Rating', firstDir: 'desc' },
  { key: 'decision', label: 'Decision', firstDir: 'asc' },
];

const STATUS_OPTIONS: readonly { value: PipelineStatus | ''; label: string }[] = [
  { value: '', label: 'All' },
  { value: 'invited', label: 'Invited' },
  { value: 'started', label: 'Started' },
  { value: 'completed', label: 'Completed' },
];

const DECISION_OPTIONS: readonly { value: PipelineState['decision']; label: string }[] = [
  { value: '', label: 'All' },
  { value: 'advance', label: 'Advance' },
  { value: 'hold', label: 'Hold' },
  { value: 'reject', label: 'Reject' },
  { value: 'none', label: 'No decision' },
];

const DECISION_LABELS: Record<PipelineDecision, string> = { advance: 'Advance', hold: 'Hold', reject: 'Reject' };

/**
 * The job's candidate pipeline (issue 15): counts per status, the invited candidates with their status, rating and
 * decision, sorted, filtered, searched and paged by the server, the whole state in the URL (src/lib/pipeline-query.ts)
 * so a reload, a shared link and the review's previous / next keep it. Each row links to the candidate's review with
 * that state and the row's index in the whole ordered list.
 */
export function CandidatePipeline({ companyId, jobId, questionCount }: { companyId: string; jobId: string; questionCount: number }) {
  const id = useId();
  const [searchParams, setSearchParams] = useSearchParams();
  const state = readPipelineState(searchParams);
  const page = useQuery(jobQueries.pipelinePage(jobId, state));

  // The URL as this screen last asked for it. A navigation lands a moment after it is asked for, and a second one
  // asked in between (the debounced search firing, a quick second click) would otherwise start from the URL before
  // the first and undo it; so each change starts from here, and a URL changed elsewhere (back, a link) lands here too.
  const latest = useRef(searchParams.toString());
  // a layout effect: up to date before the next event, not a frame later
  useLayoutEffect(() => {
    latest.current = searchParams.toString();
  }, [searchParams]);
  const current = useCallback(() => readPipelineState(new URLSearchParams(latest.current)), []);
  const show = useCallback(
    (change: Partial<PipelineState>, { replace = false } = {}) => {
      const params = writePipelineState({ ...current(), page: 1, ...change });
      latest.current = params.toString();
      void setSearchParams(params, { replace });
    },
    [current, setSearchParams],
  );

  function sortBy(key: PipelineSortKey) {
    const { sort, dir } = current();
    const column = COLUMNS.find((c) => c.key === key);
    show({ sort: key, dir: sort === key ? (dir === 'asc' ? 'desc' : 'asc') : (column?.firstDir ?? 'asc') });
  }

  // The search box follows what the user types at once and the URL (hence the server) once typing pauses; a URL
  // changed elsewhere (back, forward, a link) puts its own text back in the box.
  const [search, setSearch] = useState(state.q);
  const committed = useRef(state.q);
  useEffect(() => {
    if (state.q === committed.current) return;
    committed.current = state.q;
    setSearch(state.q);
  }, [state.q]);
  useEffect(() => {
    if (search === committed.current) return;
    const timer = window.setTimeout(() => {
      committed.current = search;
      show({ q: search }, { replace: true });
    }, SEARCH_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [search, show]);

  // A page past the end (an old link, or candidates gone since) shows the last page instead of nothing.
  const data = page.data;
  const pastTheEnd = !page.isPlaceholderData && data !== undefined && data.items.length === 0 && state.page > 1;
  const lastPage = Math.max(1, data?.totalPages ?? 1);
  useEffect(() => {
    if (pastTheEnd) show({ page: lastPage }, { replace: true });
  }, [pastTheEnd, lastPage, show]);

  const filtered = state.status !== '' || state.decision !== '' || state.q.trim() !== '';

  // the rows picked for a bulk action, or all that match: a new filter starts afresh
  const selected = usePipelineSelection(state);

  return (
    <Flex direction="column" gap="3">
      <PipelineCountsLine jobId={jobId} />

      <Flex gap="3" wrap="wrap" align="end">
        <Flex direction="column" gap="1" flexGrow="1" minWidth="12rem">
          <Text as="label" htmlFor={`${id}-search`} size="2" weight="medium">
            Search by e-mail
          </Text>
          <TextField.Root
            id={`${id}-search`}
            type="search"
            value={search}
            maxLength={200}
            autoComplete="off"
            onChange={(event) => setSearch(event.target.value)}
          />
        </Flex>
        <FilterSelect
          id={`${id}-status`}
          label="Status"
          value={state.status}
          options={STATUS_OPTIONS}
          onChange={(status) => show({ status })}
        />
        <FilterSelect
          id={`${id}-decision`}
          label="Decision"
          value={state.decision}
          options={DECISION_OPTIONS}
          onChange={(decision) => show({ decision })}
        />
      </Flex>

      {page.isPending ? (
        <Flex justify="center" p="4" aria-busy="true">
          <Spinner size="3" />
        </Flex>
      ) : page.isError ? (
        <PipelineLoadError error={page.error} onRetry={() => void page.refetch()} />
      ) : page.data.items.length === 0 ? (
        <Text as="p" size="2" color="gray">
          {filtered ? (
            'No candidates match'
          ) : (
            <>
              No candidates yet.{' '}
              {/* the next step (issue 16): the invite form above this list, on the job's page (job-detail.tsx) */}
              <RadixLink
                href={`#${INVITE_ANCHOR}`}
                onClick={(event) => {
                  const field = document.getElementById(INVITE_ANCHOR)?.querySelector('input');
                  if (!field) return;
                  event.preventDefault();
                  field.focus();
                }}
              >
                Invite your first candidate
              </RadixLink>
            </>
          )}
        </Text>
      ) : (
        <>
          {selected.count > 0 ? (
            <Suspense fallback={<Text size="2">{selected.count.toLocaleString('en')} selected</Text>}>
              <BulkActionBar
                companyId={companyId}
                jobId={jobId}
                selection={selected.selection}
                count={selected.count}
                compareIds={selected.compareIds}
                onClear={selected.clear}
              />
            </Suspense>
          ) : null}
          <SelectAllMatching page={page.data} selected={selected} />
          <PipelineTable
            companyId={companyId}
            jobId={jobId}
            page={page.data}
            questionCount={questionCount}
            sort={state}
            onSort={sortBy}
            busy={page.isPlaceholderData}
            selected={selected}
          />
          {page.data.totalPages > 1 ? (
            <Flex asChild justify="between" align="center" gap="3">
              <nav aria-label="Candidate pages">
                <Button
                  variant="soft"
                  disabled={state.page <= 1}
                  onClick={() => show({ page: Math.min(current().page - 1, page.data.totalPages) })}
                >
                  Previous
                </Button>
                <Text size="2" aria-live="polite">
                  Page {Math.min(state.page, page.data.totalPages)} of {page.data.totalPages}
                </Text>
                <Button variant="soft" disabled={state.page >= page.data.totalPages} onClick={() => show({ page: current().page + 1 })}>
                  Next
                </Button>
              </nav>
            </Flex>
          ) : null}
        </>
      )}
    </Flex>
  );
}

type Selected = ReturnType<typeof usePipelineSelection>;

/**
 * Once every row of the page is picked and more candidates match than the page shows: the offer to pick them all
 * (at most a bulk action's 1,000), or, once they are, the way back.
 */
function SelectAllMatching({ page, selected }: { page: PipelinePage; selected: Selected }) {
  const total = page.totalItems;
  if (selected.selection.kind === 'matching') {
    return (
      <Text as="p" size="2">
        All {total.toLocaleString('en')} candidates that match are selected.{' '}
        <Button variant="ghost" size="1" onClick={selected.clear}>
          Clear selection
        </Button>
      </Text>
    );
  }
  const pageAll = page.items.length > 0 && page.items.every((row) => selected.isSelected(row.id));
  if (!pageAll || total <= page.items.length) return null;
  return (
    <Text as="p" size="2">
      All {page.items.length} on this page are selected.{' '}
      {total <= MAX_BULK_CANDIDATES ? (
        <Button variant="ghost" size="1" onClick={() => selected.selectAllMatching(total)}>
          Select all {total.toLocaleString('en')} that match
        </Button>
      ) : (
        <Text color="gray">
          {total.toLocaleString('en')} match: a bulk action takes at most {MAX_BULK_CANDIDATES.toLocaleString('en')}, so narrow the
          filter to act on all of them.
        </Text>
      )}
    </Text>
  );
}

/** The page's "select all" box: checked when every row is, mixed when some are. */
function PageCheckbox({ page, selected }: { page: PipelinePage; selected: Selected }) {
  const ref = useRef<HTMLInputElement>(null);
  const picked = page.items.filter((row) => selected.isSelected(row.id)).length;
  const all = picked > 0 && picked === page.items.length;
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = picked > 0 && !all;
  }, [picked, all]);
  return (
    <input
      ref={ref}
      type="checkbox"
      className="pipeline-check"
      aria-label="Select every candidate on this page"
      checked={all}
      onChange={() => selected.togglePage(page.items)}
    />
  );
}

function PipelineTable({
  companyId,
  jobId,
  page,
  questionCount,
  sort,
  onSort,
  busy,
  selected,
}: {
  companyId: string;
  jobId: string;
  page: PipelinePage;
  questionCount: number;
  sort: Pick<PipelineState, 'sort' | 'dir'>;
  onSort: (key: PipelineSortKey) => void;
  busy: boolean;
  selected: Selected;
}) {
  // The rows' links carry the state these rows were read with (while the next page loads, the rows shown are the
  // previous page's), and each row's place in the whole ordered list, for the review's previous / next.
  const search = writePipelineState(page.state);
  const first = (page.state.page - 1) * page.perPage;
  const reviewLink = (candidateId: string, index: number) => {
    const params = new URLSearchParams(search);
    params.set('i', String(first + index));
    return { pathname: paths.companies.jobs.candidate.href(companyId, jobId, candidateId), search: `?${params.toString()}` };
  };

  return (
    <Table.Root variant="surface" aria-busy={busy || undefined} className={busy ? 'pipeline-table-busy' : undefined}>
      <VisuallyHidden asChild>
        <caption>Candidates</caption>
      </VisuallyHidden>
      <Table.Header>
        <Table.Row>
          <Table.ColumnHeaderCell className="pipeline-check-cell">
            <PageCheckbox page={page} selected={selected} />
          </Table.ColumnHeaderCell>
          {COLUMNS.map((column) => {
            const sorted = sort.sort === column.key;
            return (
              <Table.ColumnHeaderCell
                key={column.key}
                aria-sort={sorted ? (sort.dir === 'asc' ? 'ascending' : 'descending') : undefined}
              >
                <button type="button" className="pipeline-sort" onClick={() => onSort(column.key)}>
                  {column.label}
                  <span aria-hidden="true" className="pipeline-sort-mark">
                    {sorted ? (sort.dir === 'asc' ? '▲' : '▼') : '↕'}
                  </span>
                </button>
              </Table.ColumnHeaderCell>
            );
          })}
        </Table.Row>
      </Table.Header>
      <Table.Body>
        {page.items.map((candidate, index) => (
          <Table.Row key={candidate.id} data-selected={selected.isSelected(candidate.id) || undefined}>
            <Table.Cell className="pipeline-check-cell">
              <input
                type="checkbox"
                className="pipeline-check"
                aria-label={`Select ${candidate.email}`}
                checked={selected.isSelected(candidate.id)}
                onChange={() => selected.toggle(candidate, page.items)}
              />
            </Table.Cell>
            <Table.RowHeaderCell>
              <RadixLink asChild>
                <Link to={reviewLink(candidate.id, index)}>{candidate.email}</Link>
              </RadixLink>
            </Table.RowHeaderCell>
            <Table.Cell>
              <time dateTime={candidate.created.replace(' ', 'T')} title={formatDate(candidate.created)}>
                {formatDay(candidate.created)}
              </time>
            </Table.Cell>
            <Table.Cell>
              <StatusText candidate={candidate} questionCount={questionCount} />
            </Table.Cell>
            <Table.Cell>
              <RatingText average={candidate.averageRating} count={candidate.ratingsCount} />
            </Table.Cell>
            <Table.Cell>
              <DecisionText candidate={candidate} />
            </Table.Cell>
          </Table.Row>
        ))}
      </Table.Body>
    </Table.Root>
  );
}

/**
 * 'Invited', 'Started 2 of 5' (answers stored of the job's questions), or 'Completed' with its day; until completed,
 * with the invitation's state: 'Withdrawn', the deadline ('Due …'), or 'Closed' once it has passed.
 */
function StatusText({ candidate, questionCount }: { candidate: PipelineCandidate; questionCount: number }) {
  if (candidate.status === 'completed') return <ProgressText candidate={candidate} questionCount={questionCount} />;
  const invitation = invitationState(candidate);
  return (
    <Flex direction="column" align="start" gap="1">
      <ProgressText candidate={candidate} questionCount={questionCount} />
      {invitation.kind === 'withdrawn' ? (
        <Badge color="red" size="1">
          Withdrawn
        </Badge>
      ) : invitation.kind === 'closed' ? (
        <Badge color="gray" size="1" title={`The deadline was ${invitation.deadline}`}>
          Closed
        </Badge>
      ) : invitation.kind === 'open' ? (
        <Text size="1" color="gray">
          Due {invitation.deadline}
        </Text>
      ) : null}
    </Flex>
  );
}

function ProgressText({ candidate, questionCount }: { candidate: PipelineCandidate; questionCount: number }) {
  if (candidate.status === 'completed') {
    return (
      <Flex direction="column">
        <span>Completed</span>
        {candidate.completedAt ? (
          <Text size="1" color="gray">
            <time dateTime={candidate.completedAt.replace(' ', 'T')}>{formatDay(candidate.completedAt)}</time>
          </Text>
        ) : null}
      </Flex>
    );
  }
  if (candidate.status === 'started') return <>{`Started ${candidate.answeredCount} of ${questionCount}`}</>;
  return <>Invited</>;
}

/** The average stars to one decimal with a star; the whole sentence for screen readers and on hover. */
function RatingText({ average, count }: { average: number; count: number }) {
  if (!count) return <Described visible="—" description="No ratings yet" />;
  const value = average.toFixed(1);
  return <Described visible={`${value} ★`} description={`${value} out of 5 from ${count} ${count === 1 ? 'rating' : 'ratings'}`} />;
}

/** Something short to see, its meaning in words for screen readers and as the hover title. */
function Described({ visible, description }: { visible: string; description: string }) {
  return (
    <>
      <span aria-hidden="true" title={description}>
        {visible}
      </span>
      <VisuallyHidden>{description}</VisuallyHidden>
    </>
  );
}

/**
 * The decision, with who set it and when: read by screen readers with the cell, shown on hover and on keyboard focus
 * (candidate-pipeline.css).
 */
function DecisionText({ candidate }: { candidate: PipelineCandidate }) {
  if (!candidate.decision) return <Described visible="—" description="No decision" />;
  const by = candidate.expand?.decisionBy;
  const detail = [by ? `by ${by.firstName} ${by.lastName}` : '', candidate.decisionAt ? `on ${formatDate(candidate.decisionAt)}` : '']
    .filter(Boolean)
    .join(' ');
  if (!detail) return <>{DECISION_LABELS[candidate.decision]}</>;
  return (
    <span className="pipeline-decision" tabIndex={0}>
      <span>{DECISION_LABELS[candidate.decision]}</span>
      <span className="pipeline-decision-detail"> {detail}</span>
    </span>
  );
}

function FilterSelect<T extends string>({
  id,
  label,
  value,
  options,
  onChange,
}: {
  id: string;
  label: string;
  value: T;
  options: readonly { value: T; label: string }[];
  onChange: (value: T) => void;
}) {
  return (
    <Flex direction="column" gap="1">
      <Text as="label" htmlFor={id} size="2" weight="medium">
        {label}
      </Text>
      <select
        id={id}
        className="pipeline-select"
        value={value}
        onChange={(event) => onChange(options.find((o) => o.value === event.target.value)?.value ?? options[0]!.value)}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </Flex>
  );
}

/** The counts of the job's candidates per status, from the server (never from the page shown). */
function PipelineCountsLine({ jobId }: { jobId: string }) {
  const counts = useQuery(jobQueries.pipelineCounts(jobId));
  let text: ReactNode = '\u00a0';
  if (counts.isError) text = 'The counts could not be loaded.';
  else if (counts.data) text = `${counts.data.invited} invited · ${counts.data.started} started · ${counts.data.completed} completed`;
  return (
    <Text as="p" size="2" color="gray" aria-busy={counts.isPending || undefined}>
      {text}
    </Text>
  );
}

/** A list that did not load: the rest of the page stays; the server's wording goes to the console only. */
function PipelineLoadError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  useEffect(() => {
    console.error('The candidate pipeline did not load:', error);
  }, [error]);
  return (
    <Callout.Root color="red" role="alert">
      <Callout.Text>
        The candidates could not be loaded. {GENERIC_ERROR_MESSAGE}{' '}
        <Button size="1" variant="soft" color="red" onClick={onRetry}>
          Try again
        </Button>
      </Callout.Text>
    </Callout.Root>
  );
}
