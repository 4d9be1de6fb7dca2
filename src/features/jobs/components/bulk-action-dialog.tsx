import { Button, Callout, Dialog, Flex, Progress, ScrollArea, Table, Text } from '@radix-ui/themes';
import { useQueryClient } from '@tanstack/react-query';
import { ClientResponseError } from 'pocketbase';
import { useState } from 'react';

import { auditLogQueries } from '@/features/audit-log/api/audit-log-queries';
import { GENERIC_ERROR_MESSAGE, getErrorMessage } from '@/lib/errors';

import {
  downloadBulkExport,
  runBulkAction,
  type BulkProgress,
  type BulkRowResult,
  type BulkSummary,
  type HourlyAllowance,
} from '../api/bulk-actions';
import { jobQueries } from '../api/job-queries';

import { bulkSelectionOf, type PipelineSelection } from './pipeline-selection';

export type PendingAction =
  | { kind: 'decide'; decision: 'advance' | 'hold' | 'reject' | '' }
  | { kind: 'resend-invite' }
  | { kind: 'message'; messageKind: 'advance' | 'reject' }
  | { kind: 'export' }
  | { kind: 'erase' };

type Phase =
  | { step: 'confirm' }
  | { step: 'running'; progress: BulkProgress; bytes: number }
  | { step: 'done'; summary: BulkSummary }
  | { step: 'exported'; exported: number; fileName: string }
  | { step: 'failed'; message: string };

const DECISION_WORDS = { advance: 'Advance', hold: 'Hold', reject: 'Reject' } as const;

const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

/** The dialog's words for the action on `n` candidates ("all 250 matching" when chosen by the filter). */
function wordsFor(action: PendingAction, n: number, matching: boolean) {
  const who = matching ? `all ${plural(n, 'candidate', 'candidates')} that match the filter` : plural(n, 'candidate', 'candidates');
  switch (action.kind) {
    case 'decide':
      return action.decision
        ? {
            title: `${DECISION_WORDS[action.decision]} ${who}?`,
            body: `Each gets the decision ${DECISION_WORDS[action.decision]}, as on their review, with you as who set it. Those who already have it keep who set it and when. Nobody is e-mailed.`,
            confirm: DECISION_WORDS[action.decision],
            done: (k: number) => `Decided ${plural(k, 'candidate', 'candidates')}.`,
          }
        : {
            title: `Clear the decision of ${who}?`,
            body: 'Each is left with no decision, as clearing it on their review does. Nobody is e-mailed.',
            confirm: 'Clear decisions',
            done: (k: number) => `Cleared the decision of ${plural(k, 'candidate', 'candidates')}.`,
          };
    case 'resend-invite':
      return {
        title: `Send the invitation again to ${who}?`,
        body: 'Each gets their interview e-mail again, with the same link. Those who have sent their answers, whose invitation was withdrawn or whose deadline has passed are left out, as on their review.',
        confirm: 'Send again',
        done: (k: number) => `Sent ${plural(k, 'invitation', 'invitations')} again.`,
      };
    case 'message':
      return {
        title: `Send the ${action.messageKind} message to ${who}?`,
        body: `Each candidate whose decision is ${DECISION_WORDS[action.messageKind]} gets your company's ${action.messageKind} message by e-mail, in their language, as from their review. Nobody gets it twice; the others are left out and listed.`,
        confirm: 'Send messages',
        done: (k: number) => `Sent the ${action.messageKind} message to ${plural(k, 'candidate', 'candidates')}.`,
      };
    case 'export':
      return {
        title: `Export ${who}?`,
        body: 'Downloads one zip with a folder for each candidate: their answers, videos, transcripts, ratings, comments and decision. Each export is written to the audit log.',
        confirm: 'Download zip',
        done: (k: number) => `Exported ${plural(k, 'candidate', 'candidates')}.`,
      };
    case 'erase':
      return {
        title: `Erase ${who}?`,
        body:
          'Erases everything Screenroom holds about each of them for this job: their answers, videos and transcripts, the ratings, comments and decision, share links, and the queued e-mails and webhook deliveries about them. ' +
          'This removes everything and cannot be undone. The audit log keeps, for each, only that you erased a candidate, by internal id.',
        confirm: `Erase ${plural(n, 'candidate', 'candidates')}`,
        done: (k: number) => `Erased ${plural(k, 'candidate', 'candidates')}.`,
      };
  }
}

/** Why a candidate was left as it was, in the product's words (never the server's). */
export function bulkReason(action: PendingAction, row: BulkRowResult): string {
  switch (row.code) {
    case 'not_found':
      return 'Not in this job any more: erased, or not one of its candidates.';
    case 'unchanged':
      return 'Already had this decision.';
    case 'bulk_hourly_cap':
      return 'Over your limit of candidates an hour for bulk actions. Try it again later.';
    case 'too_many_mails':
      return 'Too many e-mails were sent to this address. Please try again later.';
    case 'validation_completed':
      return 'Has already sent their answers: there is no invitation to resend.';
    case 'validation_withdrawn':
      return action.kind === 'message'
        ? 'The invitation was withdrawn, so the candidate gets no more e-mails about it.'
        : 'The invitation was withdrawn. Restore it before sending it again.';
    case 'validation_decision_mismatch':
      return action.kind === 'message' && action.messageKind === 'reject' ? 'Not rejected: reject first to send this message.' : 'Not advanced: advance first to send this message.';
    case 'validation_already_sent':
      return 'Was already sent this message.';
    case 'validation_deadline_passed':
      return 'The deadline has passed. Extend it before sending the invitation again.';
    case 'validation_job_closed':
      return 'This job is closed. Reopen it to invite candidates.';
    default:
      console.error(`Bulk ${action.kind}: a candidate was not done`, row);
      return GENERIC_ERROR_MESSAGE;
  }
}

const timeFormat = new Intl.DateTimeFormat('en-US', { timeStyle: 'short' });

/** What is left of the manager's hourly allowance, and from when more. */
export function allowanceText(cap: HourlyAllowance): string {
  const at = cap.availableAt ? new Date(cap.availableAt) : null;
  const later = cap.remaining < cap.limit && at && !Number.isNaN(at.getTime()) ? ` More from ${timeFormat.format(at)}.` : '';
  return `You can act on ${plural(cap.remaining, 'more candidate', 'more candidates')} this hour (at most ${cap.limit.toLocaleString('en')} an hour, CSV invites included).${later}`;
}

/** Why a whole request was refused, for the manager; the raw error goes to the console. */
export function bulkErrorMessage(error: unknown): string {
  if (error instanceof ClientResponseError) {
    const data = error.response.data as Record<string, { code?: unknown; message?: unknown; params?: Partial<HourlyAllowance> } | undefined> | undefined;
    const detail = data?.candidates ?? data?.filter;
    if (detail?.code === 'bulk_hourly_cap' && typeof detail.params?.limit === 'number' && typeof detail.params.remaining === 'number') {
      console.error(error);
      const cap = { limit: detail.params.limit, remaining: detail.params.remaining, availableAt: detail.params.availableAt ?? null };
      return `Your hourly allowance for bulk actions is spent. ${allowanceText(cap)} Choose fewer candidates, or try again later.`;
    }
    if (detail?.code === 'validation_bulk_too_many') {
      console.error(error);
      return 'A bulk action takes at most 1,000 candidates. Choose fewer, or narrow the filter.';
    }
    if (detail?.code === 'validation_no_match' || detail?.code === 'not_found') {
      console.error(error);
      return 'None of these candidates is in this job any more. Reload the page to see who is.';
    }
    if (error.status === 0) {
      console.error(error);
      return 'The connection was lost before the end. Reload the page to see what was done.';
    }
  }
  return getErrorMessage(error);
}

/**
 * A bulk action from its confirmation to its summary: confirm, then the progress as the server handles each
 * candidate, then what was done and, candidate by candidate, what was not and why. It cannot be closed while the
 * action runs (the server finishes it whatever the page does). `onClose(finished)`: finished when the action ran.
 */
export function BulkActionDialog({
  jobId,
  action,
  selection,
  count,
  onClose,
}: {
  jobId: string;
  action: PendingAction;
  selection: PipelineSelection;
  count: number;
  onClose: (finished: boolean) => void;
}) {
  const queryClient = useQueryClient();
  const [phase, setPhase] = useState<Phase>({ step: 'confirm' });
  const words = wordsFor(action, count, selection.kind === 'matching');
  const running = phase.step === 'running';

  async function start() {
    setPhase({ step: 'running', progress: { handled: 0, total: count }, bytes: 0 });
    const target = bulkSelectionOf(selection);
    try {
      if (action.kind === 'export') {
        const { exported, fileName } = await downloadBulkExport(jobId, target, (bytes) =>
          setPhase({ step: 'running', progress: { handled: 0, total: count }, bytes }),
        );
        setPhase({ step: 'exported', exported, fileName });
      } else {
        const fields: Record<string, string> =
          action.kind === 'decide' ? { decision: action.decision } : action.kind === 'message' ? { kind: action.messageKind } : {};
        const summary = await runBulkAction(jobId, action.kind, target, fields, (progress) => setPhase({ step: 'running', progress, bytes: 0 }));
        setPhase({ step: 'done', summary });
      }
    } catch (error) {
      setPhase({ step: 'failed', message: bulkErrorMessage(error) });
    } finally {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: jobQueries.pipeline(jobId) }),
        action.kind === 'erase' || action.kind === 'export' ? queryClient.invalidateQueries({ queryKey: auditLogQueries.all() }) : null,
      ]);
    }
  }

  const close = () => onClose(phase.step === 'done' || phase.step === 'exported');

  return (
    <Dialog.Root
      open
      onOpenChange={(open) => {
        if (!open && !running) close();
      }}
    >
      <Dialog.Content maxWidth="560px" aria-describedby={undefined} onEscapeKeyDown={(event) => running && event.preventDefault()}>
        <Dialog.Title>{phase.step === 'done' || phase.step === 'exported' ? 'Bulk action finished' : words.title}</Dialog.Title>

        {phase.step === 'confirm' ? (
          <Text as="p" size="2">
            {words.body}
          </Text>
        ) : null}

        {phase.step === 'running' ? (
          <Flex direction="column" gap="2">
            {action.kind === 'export' ? (
              <>
                <Progress aria-label="Export" duration="5s" />
                <Text size="2" role="status">
                  Preparing the zip… {(phase.bytes / 1_048_576).toFixed(1)} MB received
                </Text>
              </>
            ) : (
              <>
                <Progress
                  aria-label="Candidates handled"
                  value={phase.progress.total ? (phase.progress.handled / phase.progress.total) * 100 : 0}
                  max={100}
                />
                <Text size="2" role="status">
                  {phase.progress.handled.toLocaleString('en')} of {phase.progress.total.toLocaleString('en')} candidates handled…
                </Text>
              </>
            )}
            <Text size="1" color="gray">
              This runs on the server: it finishes even if you leave the page.
            </Text>
          </Flex>
        ) : null}

        {phase.step === 'exported' ? (
          <Text as="p" size="2" role="status">
            {words.done(phase.exported)} The zip is {phase.fileName}, in your downloads.
          </Text>
        ) : null}

        {phase.step === 'done' ? <BulkSummaryView action={action} summary={phase.summary} doneText={words.done(phase.summary.done)} /> : null}

        {phase.step === 'failed' ? (
          <Callout.Root color="red" role="alert" size="1">
            <Callout.Text>{phase.message}</Callout.Text>
          </Callout.Root>
        ) : null}

        <Flex gap="3" mt="4" justify="end">
          {phase.step === 'confirm' ? (
            <>
              <Dialog.Close>
                <Button variant="soft" color="gray">
                  Cancel
                </Button>
              </Dialog.Close>
              <Button color={action.kind === 'erase' ? 'red' : undefined} highContrast={action.kind === 'erase'} onClick={() => void start()}>
                {words.confirm}
              </Button>
            </>
          ) : (
            <Button variant="soft" disabled={running} onClick={close}>
              Close
            </Button>
          )}
        </Flex>
      </Dialog.Content>
    </Dialog.Root>
  );
}

function BulkSummaryView({ action, summary, doneText }: { action: PendingAction; summary: BulkSummary; doneText: string }) {
  const left = summary.skipped + summary.failed;
  return (
    <Flex direction="column" gap="3">
      <Text as="p" size="2" role="status">
        {doneText}
        {left ? ` ${plural(left, 'candidate was', 'candidates were')} left as they were:` : ''}
      </Text>
      {left ? (
        <ScrollArea type="auto" scrollbars="vertical" style={{ maxHeight: 240 }}>
          <Table.Root size="1" variant="surface">
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeaderCell>Candidate</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>Why</Table.ColumnHeaderCell>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {summary.notDone.map((row) => (
                <Table.Row key={row.id}>
                  <Table.RowHeaderCell>{row.email || 'Not in this job'}</Table.RowHeaderCell>
                  <Table.Cell>{bulkReason(action, row)}</Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        </ScrollArea>
      ) : null}
      {summary.hourlyCap ? (
        <Text as="p" size="1" color="gray">
          {allowanceText(summary.hourlyCap)}
        </Text>
      ) : null}
    </Flex>
  );
}
