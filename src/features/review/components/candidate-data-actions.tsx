import { Button, Text } from '@radix-ui/themes';
import { useState } from 'react';
import { toast } from '@/components/toast';

import { ConfirmDialog } from '@/components/confirm-dialog';
import { getErrorMessage } from '@/lib/errors';

import { useEraseCandidate } from '../api/erase-candidate';
import { useExportCandidate } from '../api/export-candidate';

/** 'Export data' (issue 19): downloads the candidate's zip (videos, transcripts, answers, feedback, README). */
export function ExportCandidateButton({ candidateId }: { candidateId: string }) {
  const exporting = useExportCandidate();
  return (
    <Button
      type="button"
      variant="soft"
      loading={exporting.isPending}
      onClick={() =>
        exporting.mutate(candidateId, {
          onSuccess: () => toast.success('Export downloaded'),
          onError: (error) => toast.error(getErrorMessage(error)),
        })
      }
    >
      Export data
    </Button>
  );
}

/** What erasing removes, in plain words. */
export function erasureText(email: string): string {
  return (
    `Erases everything Screenroom holds about ${email} for this job: their answers, videos and transcripts, ` +
    `the ratings, comments and decision, share links, and the queued e-mails and webhook deliveries about them. ` +
    `This removes everything and cannot be undone. The audit log keeps only that you erased a candidate, by internal id.`
  );
}

/** 'Erase candidate' (issue 19): a data-protection erasure on request, confirmed, then back to the pipeline. */
export function EraseCandidateButton({
  candidateId,
  jobId,
  email,
  onErased,
}: {
  candidateId: string;
  jobId: string;
  email: string;
  onErased: () => void;
}) {
  const [open, setOpen] = useState(false);
  const erase = useEraseCandidate(jobId);
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={setOpen}
      trigger={
        <Button type="button" variant="soft" color="red">
          Erase candidate
        </Button>
      }
      title="Erase this candidate?"
      errorMessage={getErrorMessage}
      actions={[
        {
          label: 'Erase everything',
          color: 'red',
          run: async () => {
            await erase.mutateAsync(candidateId);
            toast.success('Candidate erased');
            onErased();
          },
        },
      ]}
    >
      <Text>{erasureText(email)}</Text>
    </ConfirmDialog>
  );
}
