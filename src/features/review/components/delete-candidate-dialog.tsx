import { Button, Text } from '@radix-ui/themes';
import { useState } from 'react';

import { ConfirmDialog } from '@/components/confirm-dialog';
import { deletionErrorMessage } from '@/lib/deletion-errors';

import { useDeleteCandidate } from '../api/delete-candidate';
import { firstOf, type ReviewAnswer } from '../api/review-candidate';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** What deleting the candidate takes with it, in plain words ("Deletes ana@example.com's 3 answers and their videos…"). */
export function candidateRemovalText(email: string, answers: ReviewAnswer[]): string {
  const videos = answers.filter((answer) => firstOf(answer.expand?.video_answers_via_answer)).length;
  if (answers.length === 0) {
    return `Deletes the invitation of ${email}, who has not answered yet. Their interview link stops working. This can't be undone.`;
  }
  const what =
    videos === answers.length
      ? `${plural(answers.length, 'answer')} and ${videos === 1 ? 'its video' : 'their videos'}`
      : videos > 0
        ? `${plural(answers.length, 'answer')} (${plural(videos, 'video')} among them)`
        : plural(answers.length, 'answer');
  return `Deletes ${email}'s ${what}, with the ratings, comments and share links about them. Their interview link stops working. This can't be undone.`;
}

/** The review's 'Delete candidate' (issue 16): a dialog that says what goes, then back to the job's pipeline. */
export function DeleteCandidateButton({
  candidateId,
  jobId,
  email,
  answers,
  onDeleted,
}: {
  candidateId: string;
  jobId: string;
  email: string;
  answers: ReviewAnswer[];
  onDeleted: () => void;
}) {
  const [open, setOpen] = useState(false);
  const remove = useDeleteCandidate(jobId);
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={setOpen}
      trigger={
        <Button type="button" variant="soft" color="red">
          Delete candidate
        </Button>
      }
      title="Delete this candidate?"
      errorMessage={deletionErrorMessage}
      actions={[
        {
          label: answers.length ? 'Delete candidate and answers' : 'Delete candidate',
          color: 'red',
          run: async () => {
            await remove.mutateAsync({ candidateId, deleteAnswers: answers.length > 0 });
            onDeleted();
          },
        },
      ]}
    >
      <Text>{candidateRemovalText(email, answers)}</Text>
    </ConfirmDialog>
  );
}
