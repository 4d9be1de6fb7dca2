import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Flex, Text, TextField } from '@radix-ui/themes';
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from '@/components/toast';

import { FormDevtools } from '@/components/form-devtools';
import { UnsavedChangesGuard } from '@/components/unsaved-changes';
import { defaultDeadlineValue, fromDateTimeLocal } from '@/lib/deadline';

import { useInviteCandidate } from '../api/invite-candidate';
import { reportInvitationError } from '../api/invitation-errors';
import { inviteCandidateSchema, type InviteCandidateInput, type InviteCandidateValues } from '../schemas';

import { AdjustmentFields, DeadlineField } from './invitation-fields';

const FIELDS = ['email', 'deadline', 'extraTime', 'extraTakes'] as const;

function freshValues(responseDays: number | undefined): InviteCandidateInput {
  return { email: '', deadline: defaultDeadlineValue(responseDays), extraTime: '', extraTakes: '' };
}

/**
 * E-mail and 'Invite': the server stores the candidate and sends the interview e-mail. The deadline starts at the
 * job's response time from now (none without one) and may be changed or cleared; the adjustments (extra time and
 * takes) are for candidates who need them, and the candidate sees only the resulting times and takes.
 */
export function InviteCandidateForm({ jobId, responseDays }: { jobId: string; responseDays?: number | undefined }) {
  const id = useId();
  const form = useForm<InviteCandidateInput, unknown, InviteCandidateValues>({
    resolver: zodResolver(inviteCandidateSchema),
    defaultValues: freshValues(responseDays),
  });
  const {
    register,
    formState: { errors, isSubmitting },
  } = form;
  const inviteCandidate = useInviteCandidate();

  async function submit({ email, deadline, extraTime, extraTakes }: InviteCandidateValues) {
    try {
      await inviteCandidate.mutateAsync({ jobId, email, deadline: fromDateTimeLocal(deadline), extraTime, extraTakes });
      // the next invite's default deadline counts from its own sending
      form.reset(freshValues(responseDays));
      toast.success(`Interview invitation sent to ${email}`);
    } catch (error) {
      reportInvitationError(error, form.setError, FIELDS);
    }
  }

  return (
    <form noValidate onSubmit={form.handleSubmit(submit)}>
      <Flex direction="column" gap="3">
        <Flex direction="column" gap="1">
          <Text as="label" htmlFor={`${id}-email`} size="2" weight="medium">
            Email
          </Text>
          <Flex gap="2">
            <TextField.Root
              id={`${id}-email`}
              type="email"
              placeholder="candidate@example.com"
              style={{ flex: 1 }}
              {...register('email')}
              aria-invalid={errors.email ? true : undefined}
              aria-describedby={errors.email ? `${id}-email-error` : undefined}
            />
            <Button type="submit" loading={isSubmitting}>
              Invite
            </Button>
          </Flex>
          {errors.email?.message ? (
            <Text id={`${id}-email-error`} size="1" color="red">
              {errors.email.message}
            </Text>
          ) : null}
        </Flex>

        <DeadlineField
          id={`${id}-deadline`}
          error={errors.deadline?.message}
          hint={responseDays ? `${responseDays} ${responseDays === 1 ? 'day' : 'days'} from now, the job's response time.` : 'Optional.'}
          onClear={() => form.setValue('deadline', '', { shouldDirty: true })}
          registered={register('deadline')}
        />

        <Flex direction="column" gap="2" role="group" aria-labelledby={`${id}-adjustments`}>
          <Text id={`${id}-adjustments`} size="2" weight="medium">
            Adjustments for this candidate
          </Text>
          <AdjustmentFields
            id={id}
            extraTimeError={errors.extraTime?.message}
            extraTakesError={errors.extraTakes?.message}
            extraTime={register('extraTime')}
            extraTakes={register('extraTakes')}
          />
        </Flex>
      </Flex>
      <FormDevtools control={form.control} />
      <UnsavedChangesGuard when={form.formState.isDirty && !isSubmitting} />
    </form>
  );
}
