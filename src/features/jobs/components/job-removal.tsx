import { Flex, Spinner, Text } from '@radix-ui/themes';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';

import { ConfirmDialogPanel, type ConfirmPanelProps } from '@/components/confirm-dialog';
import type { ConfirmAction } from '@/components/confirm-dialog-types';
import { RowRemoval, UnarchiveButton } from '@/components/row-removal';
import { deletionErrorMessage } from '@/lib/deletion-errors';
import type { JobsResponse } from '@/lib/pocketbase-types';

import { jobUsageQuery, useArchiveJob, useDeleteJob, type JobUsage } from '../api/delete-job';

type Job = Pick<JobsResponse, 'id' | 'title' | 'archived'>;

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** What deleting the job takes with it, in plain words. */
export function jobRemovalText(title: string, usage: JobUsage): string {
  if (usage.answers === 0) {
    return usage.candidates
      ? `Deletes "${title}" and its ${plural(usage.candidates, 'invited candidate')}, who have not answered yet. Their interview links stop working. This can't be undone.`
      : `Deletes "${title}". Nobody has been invited yet. This can't be undone.`;
  }
  const videos = usage.videos ? `, ${plural(usage.videos, 'video')} among them` : '';
  return (
    `"${title}" has ${plural(usage.candidates, 'candidate')} and ${plural(usage.answers, 'answer')}${videos}. ` +
    'Archiving hides the job from the jobs list and keeps every answer and review. ' +
    'Deleting it deletes the candidates, their answers and videos, ratings, comments and share links, and cannot be undone.'
  );
}

/**
 * A job's 'Delete' in the jobs list (issue 16). A job nobody answered is deleted after a dialog that says how many
 * invitations go with it. One with answers is archived by default; deleting it anyway needs the manager to tick that
 * the answers go too (the server refuses otherwise). An archived job comes back with 'Unarchive'.
 *
 * Until it is first used a row holds only its button: the dialog's read of what the job holds and its two actions
 * mount with the dialog (issue 20).
 */
export function JobRemoval({ job }: { job: Job }) {
  return (
    <RowRemoval
      title={job.title}
      archived={job.archived}
      unarchive={<JobUnarchive job={job} />}
      panel={(panel) => <JobRemovalDialog job={job} {...panel} />}
    />
  );
}

function JobUnarchive({ job }: { job: Job }) {
  return <UnarchiveButton title={job.title} mutation={useArchiveJob()} variables={{ jobId: job.id, archived: false }} />;
}

function JobRemovalDialog({ job, open, onOpenChange, triggerRef }: ConfirmPanelProps & { job: Job }) {
  const [confirmed, setConfirmed] = useState(false);
  const archive = useArchiveJob();
  const remove = useDeleteJob();
  const usage = useQuery({ ...jobUsageQuery(job.id), enabled: open });

  const hasAnswers = (usage.data?.answers ?? 0) > 0;
  const actions: ConfirmAction[] = !usage.data
    ? []
    : hasAnswers
      ? [
          { label: 'Archive job', variant: 'soft', run: () => archive.mutateAsync({ jobId: job.id, archived: true }) },
          {
            label: 'Delete job and answers',
            color: 'red',
            disabled: !confirmed,
            run: () => remove.mutateAsync({ jobId: job.id, deleteAnswers: true }),
          },
        ]
      : [{ label: 'Delete job', color: 'red', run: () => remove.mutateAsync({ jobId: job.id, deleteAnswers: false }) }];

  return (
    <ConfirmDialogPanel
      open={open}
      onOpenChange={(next) => {
        onOpenChange(next);
        setConfirmed(false);
      }}
      triggerRef={triggerRef}
      title={hasAnswers ? 'Archive or delete this job?' : 'Delete this job?'}
      errorMessage={deletionErrorMessage}
      actions={actions}
    >
      {usage.data ? (
        <Flex asChild direction="column" gap="3">
          <span>
            <Text>{jobRemovalText(job.title, usage.data)}</Text>
            {hasAnswers && (
              <Text as="label" weight="medium">
                <Flex asChild gap="2" align="center">
                  <span>
                    <input type="checkbox" checked={confirmed} onChange={(event) => setConfirmed(event.target.checked)} />
                    Also delete {plural(usage.data.answers, 'answer')} of {plural(usage.data.candidates, 'candidate')}
                    {usage.data.videos ? ' and their videos' : ''}
                  </span>
                </Flex>
              </Text>
            )}
          </span>
        </Flex>
      ) : usage.isError ? (
        <Text color="red">{deletionErrorMessage(usage.error)}</Text>
      ) : (
        <Flex asChild gap="2" align="center">
          <span>
            <Spinner size="1" />
            Checking what this job holds…
          </span>
        </Flex>
      )}
    </ConfirmDialogPanel>
  );
}
