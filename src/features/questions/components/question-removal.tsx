import { Flex, Spinner, Text } from '@radix-ui/themes';
import { useQuery } from '@tanstack/react-query';

import { ConfirmDialogPanel, type ConfirmPanelProps } from '@/components/confirm-dialog';
import type { ConfirmAction } from '@/components/confirm-dialog-types';
import { RowRemoval, UnarchiveButton } from '@/components/row-removal';
import { deletionErrorMessage } from '@/lib/deletion-errors';
import type { QuestionsResponse } from '@/lib/pocketbase-types';

import { questionUsageQuery, useArchiveQuestion, useDeleteQuestion, type QuestionUsage } from '../api/delete-question';

type Question = Pick<QuestionsResponse, 'id' | 'title' | 'archived'>;

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** What the dialog says, and which action it offers, for what the question is used by. */
export function questionRemovalPlan(title: string, usage: QuestionUsage): { text: string; action: 'archive' | 'delete' | null } {
  if (usage.answers > 0) {
    return {
      text:
        `Candidates have given ${plural(usage.answers, 'answer')} to "${title}", so it can't be deleted without losing them. ` +
        'Archiving hides it from the question list and the question picker; reviews keep it as the candidates saw it.',
      action: 'archive',
    };
  }
  const only = usage.jobs.find((job) => job.questions.length === 1);
  if (only) {
    return { text: `"${title}" is the only question of the job "${only.title}". Add another question to that job first.`, action: null };
  }
  const jobs = usage.jobs.map((job) => `"${job.title}"`).join(', ');
  return {
    text: usage.jobs.length
      ? `Deletes "${title}" and removes it from ${plural(usage.jobs.length, 'job')}: ${jobs}. Nobody has answered it yet. This can't be undone.`
      : `Deletes "${title}". No job asks it and nobody has answered it. This can't be undone.`,
    action: 'delete',
  };
}

/**
 * A question's 'Delete' in the questions list (issue 16). A question nobody answered is deleted, after a dialog that
 * names the jobs it leaves; one with answers cannot be (the server refuses): the dialog offers to archive it instead,
 * which hides it from the list and the question picker while every review keeps it. An archived question comes back
 * with 'Unarchive'. Until it is first used a row holds only its button (issue 20, as a job's 'Delete').
 */
export function QuestionRemoval({ question }: { question: Question }) {
  return (
    <RowRemoval
      title={question.title}
      archived={question.archived}
      unarchive={<QuestionUnarchive question={question} />}
      panel={(panel) => <QuestionRemovalDialog question={question} {...panel} />}
    />
  );
}

function QuestionUnarchive({ question }: { question: Question }) {
  return (
    <UnarchiveButton title={question.title} mutation={useArchiveQuestion()} variables={{ questionId: question.id, archived: false }} />
  );
}

function QuestionRemovalDialog({ question, open, onOpenChange, triggerRef }: ConfirmPanelProps & { question: Question }) {
  const archive = useArchiveQuestion();
  const remove = useDeleteQuestion();
  const usage = useQuery({ ...questionUsageQuery(question.id), enabled: open });

  const plan = usage.data ? questionRemovalPlan(question.title, usage.data) : null;
  const actions: ConfirmAction[] =
    plan?.action === 'archive'
      ? [{ label: 'Archive question', run: () => archive.mutateAsync({ questionId: question.id, archived: true }) }]
      : plan?.action === 'delete'
        ? [{ label: 'Delete question', color: 'red', run: () => remove.mutateAsync(question.id) }]
        : [];

  return (
    <ConfirmDialogPanel
      open={open}
      onOpenChange={onOpenChange}
      triggerRef={triggerRef}
      title={plan?.action === 'archive' ? 'Archive this question?' : 'Delete this question?'}
      errorMessage={deletionErrorMessage}
      actions={actions}
    >
      {plan ? (
        <Text>{plan.text}</Text>
      ) : usage.isError ? (
        <Text color="red">{deletionErrorMessage(usage.error)}</Text>
      ) : (
        <Flex gap="2" align="center" asChild>
          <span>
            <Spinner size="1" />
            Checking where this question is used…
          </span>
        </Flex>
      )}
    </ConfirmDialogPanel>
  );
}
