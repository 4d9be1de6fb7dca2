import { Badge, Box, Button, Callout, Dialog, Flex, Progress, ScrollArea, Table, Text, VisuallyHidden } from '@radix-ui/themes';
import { useQueryClient } from '@tanstack/react-query';
import { ClientResponseError } from 'pocketbase';
import { useId, useRef, useState, type DragEvent } from 'react';

import { AppTheme } from '@/components/app-theme';
import { jobQueries } from '@/features/jobs/api/job-queries';
import { downloadCsv } from '@/lib/csv';
import { GENERIC_ERROR_MESSAGE } from '@/lib/errors';

import { invitedEmails, sendInviteChunk, type BulkRowResult, type HourlyCap } from '../api/bulk-invites';
import {
  CHUNK_SIZE,
  CsvFileError,
  MAX_IMPORT_ROWS,
  PROBLEM_MESSAGES,
  newImportId,
  parseCsv,
  previewRows,
  summaryCsv,
  type PreviewRow,
  type RowOutcome,
} from '../lib/csv-invites';

type Step = 'choose' | 'preview' | 'sending' | 'done';

const SERVER_REASONS: Record<string, string> = {
  ...PROBLEM_MESSAGES,
  duplicate_in_file: 'Duplicate of an earlier row',
  invalid_name: 'The name is longer than 100 characters',
  multi_line: 'The name must be on one line',
  too_many_mails: 'Too many e-mails were sent to this address. Please try again later.',
  hourly_cap: 'Over your limit of invitations an hour. Send it again later.',
  error: GENERIC_ERROR_MESSAGE,
};

/** A row's outcome from the server's answer, in the product's words (never the server's). */
function outcomeOf(result: BulkRowResult): RowOutcome {
  if (result.status === 'created') return { status: 'sent', reason: '' };
  return { status: result.status, reason: SERVER_REASONS[result.reason] ?? GENERIC_ERROR_MESSAGE };
}

const timeFormat = new Intl.DateTimeFormat('en-US', { timeStyle: 'short' });

/** The manager's hourly cap in words: how many can still be invited, and from when more. */
function hourlyCapMessage(cap: HourlyCap): string {
  const limit = cap.limit.toLocaleString('en');
  const now = cap.remaining > 0 ? `You can invite ${cap.remaining.toLocaleString('en')} more candidates now` : 'You can invite no more candidates now';
  const at = cap.availableAt ? new Date(cap.availableAt) : null;
  const later = at && !Number.isNaN(at.getTime()) ? ` More from ${timeFormat.format(at)}: then use 'Retry the rest'.` : '';
  return `${now}: at most ${limit} an hour.${later}`;
}

/** The hourly cap of a 429 that refused a request (`data.rows`, code bulk_hourly_cap), if that is what it is. */
function hourlyCapOf(error: ClientResponseError): HourlyCap | null {
  const data: unknown = error.response.data;
  if (typeof data !== 'object' || data === null || !('rows' in data)) return null;
  const detail = (data as { rows?: { code?: unknown; params?: Partial<HourlyCap> } }).rows;
  const params = detail?.params;
  if (detail?.code !== 'bulk_hourly_cap' || typeof params?.limit !== 'number' || typeof params.remaining !== 'number') return null;
  return { limit: params.limit, remaining: params.remaining, availableAt: typeof params.availableAt === 'string' ? params.availableAt : null };
}

/** Why a request of the import failed, for the manager; the raw error goes to the console. */
function chunkErrorMessage(error: unknown): string {
  console.error('CSV invites: a request failed', error);
  if (error instanceof ClientResponseError) {
    const cap = error.status === 429 ? hourlyCapOf(error) : null;
    if (cap) return hourlyCapMessage(cap);
    if (error.status === 429) return 'You have sent too many invites in a short time. Please try again later.';
    if (error.status === 0) return 'The connection was lost. What was sent is kept: retry the rest when you are back online.';
  }
  return GENERIC_ERROR_MESSAGE;
}

/** 'Invite from CSV' on the job detail: choose or drop a file, check the preview, send, read the summary. */
export function CsvInviteDialog({ jobId }: { jobId: string }) {
  const id = useId();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [step, setStep] = useState<Step>('choose');
  const [fileName, setFileName] = useState('');
  const [fileError, setFileError] = useState('');
  const [reading, setReading] = useState(false);
  const [dragging, setDragging] = useState(false);
  const [rows, setRows] = useState<PreviewRow[]>([]);
  const [outcomes, setOutcomes] = useState<Map<number, RowOutcome>>(new Map());
  const [progress, setProgress] = useState({ done: 0, total: 0 });
  const [sendError, setSendError] = useState('');
  const importId = useRef('');

  function reset() {
    setStep('choose');
    setFileName('');
    setFileError('');
    setRows([]);
    setOutcomes(new Map());
    setSendError('');
    setProgress({ done: 0, total: 0 });
  }

  async function readFile(file: File) {
    setFileError('');
    setReading(true);
    try {
      const [parsed, invited] = await Promise.all([parseCsv(file), invitedEmails(jobId)]);
      if (parsed.length === 0) throw new CsvFileError('The file has no rows.');
      setFileName(file.name);
      setRows(previewRows(parsed, invited));
      importId.current = newImportId();
      setStep('preview');
    } catch (error) {
      if (error instanceof CsvFileError) setFileError(error.message);
      else {
        console.error('CSV invites: reading the file failed', error);
        setFileError(GENERIC_ERROR_MESSAGE);
      }
    } finally {
      setReading(false);
    }
  }

  const ready = rows.filter((row) => !row.problem);
  const withProblems = rows.length - ready.length;

  /** Sends `toSend` in chunks; stops at the first request that fails, keeping what was sent. */
  async function send(toSend: PreviewRow[]) {
    const next = new Map(outcomes);
    for (const row of rows) if (row.problem) next.set(row.line, { status: 'skipped', reason: row.problem.message });
    setOutcomes(new Map(next));
    setSendError('');
    setStep('sending');
    setProgress({ done: 0, total: toSend.length });
    for (let start = 0; start < toSend.length; start += CHUNK_SIZE) {
      const chunk = toSend.slice(start, start + CHUNK_SIZE);
      try {
        const response = await sendInviteChunk(
          jobId,
          importId.current,
          chunk.map(({ email, firstName, lastName, deadline }) => ({ email, firstName, lastName, deadline })),
        );
        chunk.forEach((row, index) => next.set(row.line, outcomeOf(response.results[index] ?? { status: 'failed', reason: 'error', message: '' })));
        // the manager's hourly cap was reached in this request: the rest would be refused, so it waits
        if (response.hourlyCap && response.results.some((result) => result.status === 'failed' && result.reason === 'hourly_cap')) {
          setSendError(hourlyCapMessage(response.hourlyCap));
          break;
        }
      } catch (error) {
        setSendError(chunkErrorMessage(error));
        break;
      }
      setOutcomes(new Map(next));
      setProgress({ done: start + chunk.length, total: toSend.length });
    }
    setOutcomes(new Map(next));
    setStep('done');
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: jobQueries.pipeline(jobId) }),
      queryClient.invalidateQueries({ queryKey: jobQueries.detail(jobId).queryKey }),
    ]);
  }

  const counts = { sent: 0, skipped: 0, failed: 0, not_sent: 0 };
  for (const row of rows) counts[outcomes.get(row.line)?.status ?? 'not_sent'] += 1;
  const rest = ready.filter((row) => {
    const status = outcomes.get(row.line)?.status;
    return !status || status === 'failed' || status === 'not_sent';
  });
  const unsuccessful = rows.filter((row) => outcomes.get(row.line)?.status !== 'sent');

  function onDrop(event: DragEvent<HTMLDivElement>) {
    event.preventDefault();
    setDragging(false);
    const file = event.dataTransfer.files[0];
    if (file) void readFile(file);
  }

  return (
    <AppTheme>
      <Dialog.Root
        open={open}
        onOpenChange={(next) => {
          // no closing while requests are under way: what the summary will say must reach the manager
          if (step === 'sending') return;
          setOpen(next);
          if (!next) reset();
        }}
      >
        <Dialog.Trigger>
          <Button type="button" variant="soft">
            Invite from CSV
          </Button>
        </Dialog.Trigger>
        <Dialog.Content maxWidth="860px">
          <Dialog.Title>Invite from CSV</Dialog.Title>
          <Dialog.Description size="2" mb="3">
            {`A file with an "email" column and, if you like, "first name", "last name" and "deadline" (YYYY-MM-DD). Up to ${MAX_IMPORT_ROWS.toLocaleString('en')} rows.`}
          </Dialog.Description>

          {step === 'choose' ? (
            <Flex direction="column" gap="3">
              <Box
                onDragOver={(event) => {
                  event.preventDefault();
                  setDragging(true);
                }}
                onDragLeave={() => setDragging(false)}
                onDrop={onDrop}
                data-testid="csv-drop-zone"
                p="5"
                style={{
                  border: '2px dashed var(--gray-a8)',
                  borderRadius: 'var(--radius-3)',
                  background: dragging ? 'var(--accent-a3)' : undefined,
                  textAlign: 'center',
                }}
              >
                <Flex direction="column" gap="2" align="center">
                  <Text as="label" htmlFor={`${id}-file`} size="2" weight="medium">
                    Choose a CSV file
                  </Text>
                  <input
                    id={`${id}-file`}
                    type="file"
                    accept=".csv,text/csv"
                    disabled={reading}
                    aria-invalid={fileError ? true : undefined}
                    aria-describedby={fileError ? `${id}-file-error` : undefined}
                    onChange={(event) => {
                      const file = event.target.files?.[0];
                      event.target.value = '';
                      if (file) void readFile(file);
                    }}
                  />
                  <Text size="1" color="gray">
                    or drop it here
                  </Text>
                </Flex>
              </Box>
              {reading ? <Text size="2">Reading the file…</Text> : null}
              {fileError ? (
                <Text id={`${id}-file-error`} size="2" color="red" role="alert">
                  {fileError}
                </Text>
              ) : null}
            </Flex>
          ) : null}

          {step === 'preview' ? (
            <Flex direction="column" gap="3">
              <Text size="2">
                <strong>{fileName}</strong>: {ready.length} {ready.length === 1 ? 'row' : 'rows'} ready to invite
                {withProblems ? `, ${withProblems} with problems (they will be skipped)` : ''}.
              </Text>
              <ScrollArea type="auto" scrollbars="both" style={{ maxHeight: 380 }}>
                <Table.Root size="1" variant="surface">
                  <VisuallyHidden asChild>
                    <caption>Rows of the file</caption>
                  </VisuallyHidden>
                  <Table.Header>
                    <Table.Row>
                      <Table.ColumnHeaderCell>Row</Table.ColumnHeaderCell>
                      <Table.ColumnHeaderCell>Email</Table.ColumnHeaderCell>
                      <Table.ColumnHeaderCell>First name</Table.ColumnHeaderCell>
                      <Table.ColumnHeaderCell>Last name</Table.ColumnHeaderCell>
                      <Table.ColumnHeaderCell>Deadline</Table.ColumnHeaderCell>
                      <Table.ColumnHeaderCell>Problem</Table.ColumnHeaderCell>
                    </Table.Row>
                  </Table.Header>
                  <Table.Body>
                    {rows.map((row) => (
                      <Table.Row key={row.line} data-line={row.line}>
                        <Table.RowHeaderCell>{row.line}</Table.RowHeaderCell>
                        <Table.Cell>{row.email}</Table.Cell>
                        <Table.Cell>{row.firstName}</Table.Cell>
                        <Table.Cell>{row.lastName}</Table.Cell>
                        <Table.Cell>{row.deadline}</Table.Cell>
                        <Table.Cell>{row.problem ? <Badge color="red">{row.problem.message}</Badge> : <Badge color="green" highContrast>OK</Badge>}</Table.Cell>
                      </Table.Row>
                    ))}
                  </Table.Body>
                </Table.Root>
              </ScrollArea>
              <Flex gap="3" justify="end">
                <Button type="button" variant="soft" color="gray" onClick={reset}>
                  Choose another file
                </Button>
                <Button type="button" disabled={ready.length === 0} onClick={() => void send(ready)}>
                  {`Send ${ready.length} ${ready.length === 1 ? 'invite' : 'invites'}`}
                </Button>
              </Flex>
            </Flex>
          ) : null}

          {step === 'sending' ? (
            <Flex direction="column" gap="2">
              <Text size="2" id={`${id}-progress`}>
                {`Sending invites: ${progress.done} of ${progress.total}`}
              </Text>
              <Progress
                value={progress.total ? Math.round((progress.done / progress.total) * 100) : 0}
                max={100}
                aria-labelledby={`${id}-progress`}
              />
            </Flex>
          ) : null}

          {step === 'done' ? (
            <Flex direction="column" gap="3">
              <Flex gap="4" wrap="wrap" aria-label="Summary" role="group">
                <Text size="3">
                  Sent: <strong>{counts.sent}</strong>
                </Text>
                <Text size="3">
                  Skipped: <strong>{counts.skipped}</strong>
                </Text>
                <Text size="3">
                  Failed: <strong>{counts.failed}</strong>
                </Text>
                {counts.not_sent ? (
                  <Text size="3">
                    Not sent: <strong>{counts.not_sent}</strong>
                  </Text>
                ) : null}
              </Flex>
              {sendError ? (
                <Callout.Root color="red" role="alert">
                  <Callout.Text>{sendError}</Callout.Text>
                </Callout.Root>
              ) : null}
              {unsuccessful.length ? (
                <ScrollArea type="auto" scrollbars="both" style={{ maxHeight: 300 }}>
                  <Table.Root size="1" variant="surface">
                    <VisuallyHidden asChild>
                      <caption>Rows not sent</caption>
                    </VisuallyHidden>
                    <Table.Header>
                      <Table.Row>
                        <Table.ColumnHeaderCell>Row</Table.ColumnHeaderCell>
                        <Table.ColumnHeaderCell>Email</Table.ColumnHeaderCell>
                        <Table.ColumnHeaderCell>Result</Table.ColumnHeaderCell>
                        <Table.ColumnHeaderCell>Reason</Table.ColumnHeaderCell>
                      </Table.Row>
                    </Table.Header>
                    <Table.Body>
                      {unsuccessful.map((row) => {
                        const outcome = outcomes.get(row.line) ?? { status: 'not_sent', reason: '' };
                        return (
                          <Table.Row key={row.line}>
                            <Table.RowHeaderCell>{row.line}</Table.RowHeaderCell>
                            <Table.Cell>{row.email}</Table.Cell>
                            <Table.Cell>{{ sent: 'Sent', skipped: 'Skipped', failed: 'Failed', not_sent: 'Not sent' }[outcome.status]}</Table.Cell>
                            <Table.Cell>{outcome.reason}</Table.Cell>
                          </Table.Row>
                        );
                      })}
                    </Table.Body>
                  </Table.Root>
                </ScrollArea>
              ) : null}
              <Flex gap="3" justify="end" wrap="wrap">
                <Button type="button" variant="soft" onClick={() => downloadCsv(`invites-summary-${fileName.replace(/\.csv$/i, '') || 'file'}.csv`, summaryCsv(rows, outcomes))}>
                  Download summary (CSV)
                </Button>
                {rest.length ? (
                  <Button type="button" onClick={() => void send(rest)}>
                    Retry the rest
                  </Button>
                ) : null}
                <Dialog.Close>
                  <Button type="button" variant="soft" color="gray">
                    Close
                  </Button>
                </Dialog.Close>
              </Flex>
            </Flex>
          ) : null}
        </Dialog.Content>
      </Dialog.Root>
    </AppTheme>
  );
}
