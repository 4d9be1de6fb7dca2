import { Box, Button, Dialog, Flex, Text } from '@radix-ui/themes';
import { useState } from 'react';

import { AppTheme } from '@/components/app-theme';

import type { ListedQuestion } from './sortable-question-list';

type QuestionPickerDialogProps = {
  /** The company's questions that are not in the job yet. */
  available: ListedQuestion[];
  onPick: (ids: string[]) => void;
};

/** 'Add': picks questions of the company's bank that the job does not have yet. */
export function QuestionPickerDialog({ available, onPick }: QuestionPickerDialogProps) {
  const [open, setOpen] = useState(false);
  const [selected, setSelected] = useState<string[]>([]);

  function toggle(id: string, checked: boolean) {
    setSelected((current) => (checked ? [...current, id] : current.filter((other) => other !== id)));
  }

  return (
    <AppTheme>
      <Dialog.Root
        open={open}
        onOpenChange={(next) => {
          setOpen(next);
          setSelected([]);
        }}
      >
        <Dialog.Trigger>
          <Button type="button" variant="soft">
            Add
          </Button>
        </Dialog.Trigger>
        <Dialog.Content maxWidth="480px">
          <Dialog.Title>Add questions</Dialog.Title>
          <Dialog.Description size="2" mb="3">
            Pick questions from your company's question bank.
          </Dialog.Description>
          {available.length === 0 ? (
            <Text as="p" size="2" color="gray">
              Every question of your company is already in this job.
            </Text>
          ) : (
            <Box style={{ maxHeight: 320, overflowY: 'auto' }}>
              <Flex direction="column" gap="2" pr="3">
                {available.map((question) => (
                  <Text as="label" size="2" key={question.id}>
                    <Flex gap="2" align="center">
                      <input
                        type="checkbox"
                        checked={selected.includes(question.id)}
                        onChange={(event) => toggle(question.id, event.target.checked)}
                      />
                      {question.title}
                    </Flex>
                  </Text>
                ))}
              </Flex>
            </Box>
          )}
          <Flex gap="3" mt="4" justify="end">
            <Dialog.Close>
              <Button type="button" variant="soft" color="gray">
                Cancel
              </Button>
            </Dialog.Close>
            <Button
              type="button"
              disabled={selected.length === 0}
              onClick={() => {
                // In the bank's order, whatever order they were ticked in.
                onPick(available.filter((question) => selected.includes(question.id)).map((question) => question.id));
                setOpen(false);
                setSelected([]);
              }}
            >
              Add selected
            </Button>
          </Flex>
        </Dialog.Content>
      </Dialog.Root>
    </AppTheme>
  );
}
