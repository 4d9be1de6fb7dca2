import { Button, Dialog } from '@radix-ui/themes';
import { useState } from 'react';

import { AppTheme } from '@/components/app-theme';
import { useCreateQuestion } from '@/features/questions/api/create-question';
import { QuestionForm } from '@/features/questions/components/question-form';

type CreateQuestionDialogProps = {
  companyId: string;
  /** The new question, to append to the job. */
  onCreated: (questionId: string) => void;
};

/** 'Create new question': the question form in a dialog; the new question joins the job's list. */
export function CreateQuestionDialog({ companyId, onCreated }: CreateQuestionDialogProps) {
  const [open, setOpen] = useState(false);
  const createQuestion = useCreateQuestion();

  return (
    <AppTheme>
      <Dialog.Root open={open} onOpenChange={setOpen}>
        <Dialog.Trigger>
          <Button type="button" variant="soft">
            Create new question
          </Button>
        </Dialog.Trigger>
        <Dialog.Content maxWidth="560px">
          <Dialog.Title>Create new question</Dialog.Title>
          <Dialog.Description size="2" mb="3">
            It is saved to your company's question bank and added to this job.
          </Dialog.Description>
          <QuestionForm
            guardLeaving={false}
            submitLabel="Create Question"
            onSubmit={async (values) => {
              const question = await createQuestion.mutateAsync({ companyId, values });
              onCreated(question.id);
              setOpen(false);
            }}
            cancel={
              <Dialog.Close>
                <Button type="button" variant="soft" color="gray">
                  Cancel
                </Button>
              </Dialog.Close>
            }
          />
        </Dialog.Content>
      </Dialog.Root>
    </AppTheme>
  );
}
