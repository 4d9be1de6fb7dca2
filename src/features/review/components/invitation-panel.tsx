import { zodResolver } from '@hookform/resolvers/zod';
import { AlertDialog, Badge, Button, Dialog, Flex, Text } from '@radix-ui/themes';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from '@/components/toast';
import { z } from 'zod';

import { AppTheme } from '@/components/app-theme';
import { showErrorToast } from '@/components/toaster';
import { reportInvitationError } from '@/features/jobs/api/invitation-errors';
import { AdjustmentFields, DeadlineField } from '@/features/jobs/components/invitation-fields';
import {
  adjustmentsText,
  deadlineFieldSchema,
  extraTakesFieldSchema,
  extraTimeFieldSchema,
  fromDateTimeLocal,
  invitationState,
  parseServerDate,
  toDateTimeLocal,
  type InvitationState,
} from '@/lib/deadline';
import { GENERIC_ERROR_MESSAGE } from '@/lib/errors';
import type { CandidatesResponse } from '@/lib/pocketbase-types';

import { useUpdateInvitation } from '../api/update-invitation';

import { ResendInvitationButton } from './resend-invitation-button';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The candidate's invitation on the review (issue 17 points 5 to 7): its deadline ('Due …', 'No deadline', 'Closed'),
 * 'Extend deadline', 'Withdraw invitation' (confirmed, undone by 'Restore invitation'), and the extra time and takes
 * granted, changeable. The candidate never sees the word 'adjustment', only the resulting times and takes.
 */
export function InvitationPanel({ candidate }: { candidate: CandidatesResponse }) {
  const headingId = useId();
  const update = useUpdateInvitation(candidate.id, candidate.job);
  const state = invitationState(candidate);
  const completed = candidate.status === 'completed';

  const withdraw = (withdrawn: boolean) =>
    update.mutate(
      { withdrawn },
      {
        onSuccess: () => toast.success(withdrawn ? 'Invitation withdrawn' : 'Invitation restored'),
        onError: (error) => {
          console.error(error);
          showErrorToast(GENERIC_ERROR_MESSAGE);
        },
      },
    );

  return (
    <Flex direction="column" gap="3" asChild>
      <section aria-labelledby={headingId} data-testid="invitation-panel">
        <Text as="div" size="2" weight="bold" id={headingId}>
          Invitation
        </Text>
        <Flex gap="2" align="center" wrap="wrap">
          <DeadlineText state={state} />
        </Flex>
        {!completed ? (
          <Flex gap="2" wrap="wrap">
            {state.kind !== 'withdrawn' ? <ExtendDeadlineDialog candidate={candidate} /> : null}
            {state.kind === 'withdrawn' ? (
              <Button type="button" size="1" variant="soft" loading={update.isPending} onClick={() => withdraw(false)}>
                Restore invitation
              </Button>
            ) : (
              <WithdrawDialog email={candidate.email} pending={update.isPending} onConfirm={() => withdraw(true)} />
            )}
            {/* issue 16: only while the link can still be used */}
            {state.kind === 'open' || state.kind === 'none' ? (
              <ResendInvitationButton key={candidate.id} candidateId={candidate.id} email={candidate.email} />
            ) : null}
          </Flex>
        ) : null}
        <AdjustmentsForm candidate={candidate} />
      </section>
    </Flex>
  );
}

function DeadlineText({ state }: { state: InvitationState }) {
  switch (state.kind) {
    case 'withdrawn':
      return (
        <>
          <Badge color="red">Withdrawn</Badge>
          <Text size="2" color="gray">
            The link is closed and no reminders are sent.
          </Text>
        </>
      );
    case 'none':
      return <Text size="2">No deadline</Text>;
    case 'closed':
      return (
        <>
          <Badge color="gray">Closed</Badge>
          <Text size="2" color="gray">
            The deadline was {state.deadline}.
          </Text>
        </>
      );
    case 'open':
      return <Text size="2">Due {state.deadline}</Text>;
  }
}

const extendSchema = z.object({ deadline: deadlineFieldSchema.refine((value) => value !== '', 'Please enter a date and time') });
type ExtendValues = z.output<typeof extendSchema>;

/** A new deadline for this candidate; it starts at the current one when that is still ahead, else a week from now. */
function ExtendDeadlineDialog({ candidate }: { candidate: CandidatesResponse }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const update = useUpdateInvitation(candidate.id, candidate.job);
  const form = useForm<ExtendValues>({ resolver: zodResolver(extendSchema), defaultValues: { deadline: '' } });

  function start(next: boolean) {
    if (next) {
      const current = parseServerDate(candidate.deadline);
      const from = current && current.getTime() > Date.now() ? current : new Date(Date.now() + 7 * DAY_MS);
      form.reset({ deadline: toDateTimeLocal(from) });
    }
    setOpen(next);
  }

  async function submit({ deadline }: ExtendValues) {
    try {
      await update.mutateAsync({ deadline: fromDateTimeLocal(deadline) });
      setOpen(false);
      toast.success('Deadline changed');
    } catch (error) {
      reportInvitationError(error, form.setError, ['deadline']);
    }
  }

  const label = candidate.deadline ? 'Extend deadline' : 'Set a deadline';
  return (
    <AppTheme>
      <Dialog.Root open={open} onOpenChange={start}>
        <Dialog.Trigger>
          <Button type="button" size="1" variant="soft">
            {label}
          </Button>
        </Dialog.Trigger>
        <Dialog.Content maxWidth="420px">
          <Dialog.Title>{label}</Dialog.Title>
          <Dialog.Description size="2" mb="3">
            The interview link stays open until then, and the reminders are sent again before the new deadline.
          </Dialog.Description>
          <form noValidate onSubmit={(event) => void form.handleSubmit(submit)(event)}>
            <DeadlineField id={`${id}-deadline`} label="New deadline" error={form.formState.errors.deadline?.message} registered={form.register('deadline')} />
            <Flex gap="3" mt="4" justify="end">
              <Dialog.Close>
                <Button type="button" variant="soft" color="gray">
                  Cancel
                </Button>
              </Dialog.Close>
              <Button type="submit" loading={form.formState.isSubmitting}>
                Save deadline
              </Button>
            </Flex>
          </form>
        </Dialog.Content>
      </Dialog.Root>
    </AppTheme>
  );
}

function WithdrawDialog({ email, pending, onConfirm }: { email: string; pending: boolean; onConfirm: () => void }) {
  return (
    <AppTheme>
      <AlertDialog.Root>
        <AlertDialog.Trigger>
          <Button type="button" size="1" variant="soft" color="red" loading={pending}>
            Withdraw invitation
          </Button>
        </AlertDialog.Trigger>
        <AlertDialog.Content maxWidth="460px">
          <AlertDialog.Title>Withdraw the invitation?</AlertDialog.Title>
          <AlertDialog.Description size="2">
            The interview link of {email} closes at once and shows a polite closed page, and no more reminders are sent.
            Answers already sent are kept. You can restore the invitation later.
          </AlertDialog.Description>
          <Flex gap="3" mt="4" justify="end">
            <AlertDialog.Cancel>
              <Button variant="soft" color="gray">
                Cancel
              </Button>
            </AlertDialog.Cancel>
            <AlertDialog.Action>
              {/* high contrast: white on Radix's red 9 falls short of WCAG AA (3.9:1) */}
              <Button color="red" highContrast onClick={onConfirm}>
                Withdraw invitation
              </Button>
            </AlertDialog.Action>
          </Flex>
        </AlertDialog.Content>
      </AlertDialog.Root>
    </AppTheme>
  );
}

const adjustmentsSchema = z.object({ extraTime: extraTimeFieldSchema, extraTakes: extraTakesFieldSchema });
type AdjustmentsInput = z.input<typeof adjustmentsSchema>;
type AdjustmentsValues = z.output<typeof adjustmentsSchema>;

/** The extra time and takes granted to this candidate, shown and changed in place. */
function AdjustmentsForm({ candidate }: { candidate: CandidatesResponse }) {
  const id = useId();
  const [editing, setEditing] = useState(false);
  const update = useUpdateInvitation(candidate.id, candidate.job);
  const form = useForm<AdjustmentsInput, unknown, AdjustmentsValues>({
    resolver: zodResolver(adjustmentsSchema),
    defaultValues: { extraTime: candidate.extraTime ?? '', extraTakes: candidate.extraTakes || '' },
  });
  const text = adjustmentsText(candidate.extraTime, candidate.extraTakes);

  async function submit(values: AdjustmentsValues) {
    try {
      await update.mutateAsync(values);
      setEditing(false);
      toast.success('Adjustments saved');
    } catch (error) {
      reportInvitationError(error, form.setError, ['extraTime', 'extraTakes']);
    }
  }

  if (!editing) {
    return (
      <Flex gap="2" align="center" wrap="wrap">
        <Text size="2" data-testid="adjustments-text">
          Adjustments: {text}
        </Text>
        <Button
          type="button"
          size="1"
          variant="ghost"
          onClick={() => {
            form.reset({ extraTime: candidate.extraTime ?? '', extraTakes: candidate.extraTakes || '' });
            setEditing(true);
          }}
        >
          Change adjustments
        </Button>
      </Flex>
    );
  }
  return (
    <form noValidate onSubmit={(event) => void form.handleSubmit(submit)(event)} aria-labelledby={`${id}-title`}>
      <Flex direction="column" gap="2">
        <Text id={`${id}-title`} size="2" weight="medium">
          Adjustments for this candidate
        </Text>
        <AdjustmentFields
          id={id}
          extraTimeError={form.formState.errors.extraTime?.message}
          extraTakesError={form.formState.errors.extraTakes?.message}
          extraTime={form.register('extraTime')}
          extraTakes={form.register('extraTakes')}
        />
        <Flex gap="2">
          <Button type="submit" size="1" loading={form.formState.isSubmitting}>
            Save adjustments
          </Button>
          <Button type="button" size="1" variant="soft" color="gray" onClick={() => setEditing(false)}>
            Cancel
          </Button>
        </Flex>
      </Flex>
    </form>
  );
}
