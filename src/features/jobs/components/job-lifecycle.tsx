import { Badge, Button, Callout } from '@radix-ui/themes';
import { useState } from 'react';
import { toast } from '@/components/toast';

import { ConfirmDialog } from '@/components/confirm-dialog';
import { formatDay } from '@/lib/format-date';
import { getErrorMessage } from '@/lib/errors';

import { useSetJobClosed } from '../api/close-job';

/** The 'Closed' badge of a closed job (jobs list and job detail); nothing for an open one. */
export function JobClosedBadge({ closedAt }: { closedAt?: string | undefined }) {
  if (!closedAt) return null;
  return (
    <Badge color="amber" highContrast>
      Closed
    </Badge>
  );
}

/**
 * 'Close job' (after a confirmation that says what closing does) or 'Reopen job' (at once: it only gives back what
 * closing took away). Issue 19 point 5.
 */
export function JobCloseButton({ jobId, title, closedAt }: { jobId: string; title: string; closedAt?: string | undefined }) {
  const [open, setOpen] = useState(false);
  const setClosed = useSetJobClosed();

  if (closedAt) {
    return (
      <Button
        type="button"
        variant="soft"
        loading={setClosed.isPending}
        onClick={() =>
          setClosed.mutate(
            { jobId, closed: false },
            {
              onSuccess: () => toast.success(`${title} is open again`),
              onError: (error) => toast.error(getErrorMessage(error)),
            },
          )
        }
      >
        Reopen job
      </Button>
    );
  }
  return (
    <ConfirmDialog
      trigger={
        <Button type="button" variant="soft" color="amber" highContrast>
          Close job
        </Button>
      }
      open={open}
      onOpenChange={setOpen}
      title={`Close ${title}?`}
      actions={[
        {
          label: 'Close job',
          run: async () => {
            await setClosed.mutateAsync({ jobId, closed: true });
            toast.success(`${title} is closed`);
          },
        },
      ]}
      errorMessage={(error) => getErrorMessage(error)}
    >
      Candidates who open their link will see that the job is closed and can no longer answer, and no one new can be
      invited. Nothing is deleted: the answers, ratings and comments stay, and you can reopen the job at any time.
      While it is closed, the company's retention period counts from the day it was closed.
    </ConfirmDialog>
  );
}

/** Above the invite forms of a closed job: why they are off, and what to do. */
export function JobClosedNotice({ closedAt }: { closedAt: string }) {
  return (
    <Callout.Root color="amber" role="status">
      <Callout.Text>
        This job was closed on {formatDay(closedAt)}, so no one new can be invited. Reopen the job to invite
        candidates.
      </Callout.Text>
    </Callout.Root>
  );
}
